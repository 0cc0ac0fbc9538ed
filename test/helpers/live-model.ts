import type { LiveOrganization, LiveSiteSpace, LiveState } from '../../src/model/index.js';
import type { EmuSite, EmulatorState } from '../../src/emulator/state.js';

/**
 * The live model of an emulator state, without HTTP: what the live reader would produce.
 * Golden plan tests use it; an integration test checks that reading over HTTP gives the same plan.
 */
export function liveFromEmulator(state: EmulatorState): LiveState {
  return {
    organizations: state.organizations.map((org): LiveOrganization => {
      const siteSpace = (site: EmuSite, ss: EmuSite['siteSpaces'][number]): LiveSiteSpace => {
        const section = site.sections.find((s) => s.id === ss.sectionId);
        return {
          id: ss.id,
          space: ss.spaceId,
          path: ss.path,
          condition: ss.condition,
          default: section ? section.defaultSiteSpaceId === ss.id : site.defaultRootSiteSpaceId === ss.id,
        };
      };
      return {
        id: org.id,
        customFields: org.customFields.map((f) => ({
          name: f.name,
          type: f.type as never,
          title: f.title,
          description: f.description,
          placeholder: f.placeholder,
          options: f.options,
        })),
        spaces: org.spaces.map((s) => ({ id: s.id, customFields: { ...s.customFields } })),
        teams: org.teams.map((t) => ({
          id: t.id,
          title: t.title,
          members: t.members.map((m) => ({
            userId: m.userId,
            email: org.members.find((x) => x.user.id === m.userId)?.user.email ?? null,
            role: m.role,
          })),
        })),
        sites: org.sites.map((site) => ({
          id: site.id,
          title: site.title,
          visibility: site.visibility as never,
          basename: site.basename,
          agentsContext: site.agentsContext,
          adaptiveContent: site.adaptiveContent,
          proxy: site.proxy,
          sections: site.sections.map((sec) => ({
            id: sec.id,
            path: sec.path,
            title: sec.title,
            icon: sec.icon,
            description: sec.description,
            condition: sec.condition,
            default: site.defaultSectionId === sec.id,
            group: sec.groupId,
            spaces: site.siteSpaces.filter((ss) => ss.sectionId === sec.id).map((ss) => siteSpace(site, ss)),
          })),
          sectionGroups: site.groups.map((g) => ({ id: g.id, title: g.title, icon: g.icon })),
          spaces: site.siteSpaces.filter((ss) => ss.sectionId === null).map((ss) => siteSpace(site, ss)),
          shareLinks: site.shareLinks.map((l) => ({ id: l.id, name: l.name, active: l.active })),
        })),
      };
    }),
  };
}
