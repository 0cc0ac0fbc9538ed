import type {
  CertificateRef,
  DesiredOrganization,
  DesiredSite,
  DesiredSiteSpace,
  DesiredState,
} from '../model/desired.js';
import type { ConfigFile } from './schema.js';

export const DEFAULT_MAX_DELETES = 10;

type SiteSpaceInput = NonNullable<NonNullable<ConfigFile['sites']>[number]['spaces']>[number];

const siteSpace = (s: SiteSpaceInput): DesiredSiteSpace => ({
  space: s.space,
  ...(s.path !== undefined ? { path: s.path } : {}),
  ...(s.condition !== undefined ? { condition: s.condition } : {}),
  ...(s.default !== undefined ? { default: s.default } : {}),
});

function defined<T extends Record<string, unknown>>(value: T): T {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) if (value[key] !== undefined) out[key] = value[key];
  return out as T;
}

function site(s: NonNullable<ConfigFile['sites']>[number]): DesiredSite {
  return defined({
    title: s.title,
    id: s.id,
    previously: s.previously,
    visibility: s.visibility,
    basename: s.basename,
    agentsContext: s.agentsContext,
    adaptiveContent: s.adaptiveContent,
    proxy: s.proxy,
    published: s.published,
    adaptiveSchema: s.adaptiveSchema,
    shareLinks: s.shareLinks?.map((l) =>
      defined({ name: l.name, id: l.id, previously: l.previously, active: l.active }),
    ),
    sections: s.sections?.map((sec) =>
      defined({
        path: sec.path,
        title: sec.title,
        icon: sec.icon,
        description: sec.description,
        condition: sec.condition,
        default: sec.default,
        spaces: sec.spaces.map(siteSpace),
      }),
    ),
    sectionGroups: s.sectionGroups?.map((g) =>
      defined({ title: g.title, id: g.id, previously: g.previously, icon: g.icon, sections: g.sections }),
    ),
    spaces: s.spaces?.map(siteSpace),
  }) as DesiredSite;
}

/**
 * Merge the files of each organization (in file order) into the normalized desired state:
 * defaults applied, member shorthand expanded, list order kept. Assumes `checkSemantics` passed.
 */
type SamlInput = NonNullable<ConfigFile['saml']>[number];

export function normalize(
  files: ConfigFile[],
  certificates: Map<SamlInput, CertificateRef> = new Map(),
): DesiredState {
  const orgs = new Map<string, DesiredOrganization>();
  for (const file of files) {
    let org = orgs.get(file.organization);
    if (!org) {
      org = { id: file.organization, policy: { prune: false, maxDeletes: DEFAULT_MAX_DELETES } };
      orgs.set(file.organization, org);
    }
    if (file.policy) {
      org.policy = {
        prune: file.policy.prune ?? false,
        maxDeletes: file.policy.maxDeletes ?? DEFAULT_MAX_DELETES,
      };
    }
    if (file.customFields)
      org.customFields = [
        ...(org.customFields ?? []),
        ...file.customFields.map((f) =>
          defined({
            name: f.name,
            type: f.type,
            title: f.title,
            description: f.description,
            placeholder: f.placeholder,
            options: f.options,
          }),
        ),
      ];
    if (file.spaces)
      org.spaces = [
        ...(org.spaces ?? []),
        ...file.spaces.map((s) =>
          defined({
            id: s.id,
            title: s.title,
            emoji: s.emoji,
            editMode: s.editMode,
            defaultLevel: s.defaultLevel,
            parent: s.parent,
            customFields: s.customFields ? { ...s.customFields } : undefined,
          }),
        ),
      ];
    if (file.settings) org.settings = defined({ ...file.settings });
    if (file.members)
      org.members = [...(org.members ?? []), ...file.members.map((m) => ({ user: m.user, role: m.role }))];
    if (file.collections)
      org.collections = [
        ...(org.collections ?? []),
        ...file.collections.map((c) =>
          defined({
            title: c.title,
            id: c.id,
            previously: c.previously,
            description: c.description,
            defaultLevel: c.defaultLevel,
            parent: c.parent,
          }),
        ),
      ];
    if (file.openapi)
      org.openapi = [
        ...(org.openapi ?? []),
        ...file.openapi.map((o) => ({ slug: o.slug, source: o.source })),
      ];
    if (file.saml)
      org.saml = [
        ...(org.saml ?? []),
        ...file.saml.map((p) =>
          defined({
            label: p.label,
            id: p.id,
            previously: p.previously,
            entityID: p.entityID,
            ssoURL: p.ssoURL,
            certificate: certificates.get(p),
            defaultTeam: p.defaultTeam,
            defaultRole: p.defaultRole,
          }),
        ),
      ];
    if (file.translations)
      org.translations = [
        ...(org.translations ?? []),
        ...file.translations.map((t) => defined({ title: t.title, id: t.id, previously: t.previously })),
      ];
    if (file.teams)
      org.teams = [
        ...(org.teams ?? []),
        ...file.teams.map((t) =>
          defined({
            title: t.title,
            id: t.id,
            previously: t.previously,
            members: t.members?.map((m) =>
              typeof m === 'string'
                ? { user: m, role: 'member' as const }
                : { user: m.user, role: m.role ?? 'member' },
            ),
          }),
        ),
      ];
    if (file.sites) org.sites = [...(org.sites ?? []), ...file.sites.map(site)];
  }
  return { organizations: [...orgs.values()] };
}
