import { certificateHash } from '../../src/model/certificate.js';
import type { LiveOrganization, LiveState } from '../../src/reconcile/index.js';
import type { LiveSiteSpace } from '../../src/kinds/site-structure.js';
import type { EmuSite, EmulatorState } from '../../src/emulator/state.js';

/**
 * The live model of an emulator state, without HTTP: what the live reader would produce.
 * Golden plan tests use it; an integration test checks that reading over HTTP gives the same plan.
 */
export function liveFromEmulator(state: EmulatorState, flavor: 'seed' | 'current' = 'seed'): LiveState {
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
      const tokenUser = state.tokenUser ?? org.members.find((m) => m.role === 'admin')?.user.id ?? null;
      return {
        id: org.id,
        settings: {
          title: org.title,
          emailDomains: org.emailDomains,
          hostname: org.hostname,
          defaultRole: org.defaultRole as never,
          defaultContent: org.defaultContent ?? null,
          inviteLinks: org.inviteLinks,
          sso: org.sso,
          ai: org.ai,
        },
        members: org.members.map((m) => ({ userId: m.user.id, email: m.user.email, role: m.role as never })),
        self: org.members.some((m) => m.user.id === tokenUser) ? tokenUser : null,
        collections: org.collections.map((c) => ({
          id: c.id,
          title: c.title,
          description: c.description,
          defaultLevel: c.defaultLevel as never,
          parent: c.parent,
        })),
        openapi: (org.openapi ?? []).map((x) => ({ slug: x.slug, source: x.source })),
        saml: (org.saml ?? []).map((p) => ({
          id: p.id,
          label: p.label,
          entityID: p.entityID,
          ssoURL: p.ssoURL,
          certificateSha256: p.certificate ? certificateHash(p.certificate) : null,
          defaultTeam: p.defaultTeam,
          defaultRole: p.defaultRole as never,
        })),
        translations: (org.translations ?? []).flatMap((t) =>
          t.title === undefined ? [] : [{ id: t.id, title: t.title }],
        ),
        customFields: org.customFields.map((f) => ({
          name: f.name,
          type: f.type as never,
          title: f.title,
          description: f.description,
          placeholder: f.placeholder,
          options: f.options,
        })),
        spaces: org.spaces.map((s) => ({
          id: s.id,
          title: s.title,
          emoji: s.emoji,
          editMode: s.editMode as never,
          defaultLevel: s.defaultLevel as never,
          parent: s.parent,
          customFields: { ...s.customFields },
        })),
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
          agentsContext: flavor === 'seed' ? site.agentsContext : null,
          published: site.published,
          adaptiveSchema: site.adaptiveSchema ?? defaultAdaptiveSchema,
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

/** What the emulator answers for a site that never had an adaptive schema. */
const defaultAdaptiveSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {},
  additionalProperties: false,
};
