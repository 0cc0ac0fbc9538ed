import { z } from 'zod';
import { seedDeclared } from './declared.js';
import { siteFaceFromSeed } from './site-face-seed.js';
import type { EmuGrant, EmuGroup, EmuOrganization, EmuSite, EmulatorState } from './state.js';
import { grantsFromSeed } from './routes/permissions.js';
import { slugify, uniquePath } from './store.js';

/**
 * The seed: what the API itself cannot create (organizations, members, spaces, collections) and,
 * optionally, everything else in shapes close to the API's own. Unknown keys are allowed.
 */
const member = z.looseObject({
  id: z.string(),
  email: z.string(),
  displayName: z.string().optional(),
  role: z.string().nullable().optional(),
});
const siteSpace = z.looseObject({
  id: z.string().optional(),
  space: z.string(),
  path: z.string().optional(),
  condition: z.string().nullable().optional(),
  default: z.boolean().optional(),
  draft: z.boolean().optional(),
  hidden: z.boolean().optional(),
  pageId: z.string().nullable().optional(),
  /** Today's API: the keys it overrides in the site's customization. */
  customization: z.record(z.string(), z.unknown()).optional(),
});
/** Today's API: localized texts by language. */
const localizedText = z.record(z.string(), z.string()).optional();
const section = z.looseObject({
  id: z.string().optional(),
  title: z.string(),
  path: z.string().optional(),
  icon: z.string().nullable().optional(),
  description: z.string().nullable().optional(),
  condition: z.string().nullable().optional(),
  default: z.boolean().optional(),
  sectionGroup: z.string().optional(),
  draft: z.boolean().optional(),
  localizedTitle: localizedText,
  localizedDescription: localizedText,
  siteSpaces: z.array(siteSpace).default([]),
});
const site = z.looseObject({
  id: z.string().optional(),
  title: z.string(),
  visibility: z.string().default('public'),
  published: z.boolean().default(false),
  basename: z.string().nullable().optional(),
  agentsContext: z.enum(['included', 'excluded']).default('included'),
  adaptiveContent: z.object({ enabled: z.boolean() }).optional(),
  proxy: z.string().nullable().optional(),
  defaultLevel: z.string().nullable().optional(),
  sections: z.array(section).default([]),
  sectionGroups: z
    .array(
      z.looseObject({
        id: z.string().optional(),
        title: z.string(),
        icon: z.string().nullable().optional(),
        draft: z.boolean().optional(),
        localizedTitle: localizedText,
        /** Today's API: the group it is nested in (its id or title). */
        parent: z.string().optional(),
      }),
    )
    .default([]),
  siteSpaces: z.array(siteSpace).default([]),
});
const organization = z.looseObject({
  id: z.string(),
  title: z.string().default('Organization'),
  emailDomains: z.array(z.string()).default([]),
  hostname: z.string().nullable().optional(),
  defaultRole: z.string().nullable().optional(),
  logo: z.string().nullable().optional(),
  members: z.array(member).default([]),
  collections: z
    .array(
      z.looseObject({
        id: z.string(),
        title: z.string(),
        description: z.string().optional(),
        parent: z.string().nullable().optional(),
      }),
    )
    .default([]),
  spaces: z
    .array(
      z.looseObject({
        id: z.string(),
        title: z.string(),
        emoji: z.string().optional(),
        visibility: z.string().optional(),
        parent: z.string().nullable().optional(),
        // Not z.record: it drops a key named __proto__, which the API may well hold.
        customFields: z
          .custom<Record<string, unknown>>((v) => v !== null && typeof v === 'object' && !Array.isArray(v))
          .optional(),
      }),
    )
    .default([]),
  teams: z
    .array(
      z.looseObject({
        id: z.string().optional(),
        title: z.string(),
        members: z
          .array(
            z.union([
              z.string(),
              z.looseObject({ user: z.string(), role: z.enum(['owner', 'member']).default('member') }),
            ]),
          )
          .default([]),
      }),
    )
    .default([]),
  customFields: z
    .array(
      z.looseObject({
        id: z.string().optional(),
        name: z.string(),
        type: z.string(),
        title: z.string().optional(),
        description: z.string().optional(),
        placeholder: z.string().optional(),
        options: z.array(z.string()).optional(),
      }),
    )
    .default([]),
  sites: z.array(site).default([]),
  defaultContent: z.string().nullable().optional(),
  openapi: z
    .array(
      z.looseObject({
        slug: z.string(),
        source: z.union([z.string(), z.strictObject({ text: z.string() })]),
        visibility: z.enum(['private', 'public']).optional(),
      }),
    )
    .default([]),
  saml: z
    .array(
      z.looseObject({
        id: z.string().optional(),
        label: z.string(),
        entityID: z.string().optional(),
        ssoURL: z.string().optional(),
        certificate: z.string().optional(),
        defaultTeam: z.string().optional(),
        defaultRole: z.string().nullable().optional(),
      }),
    )
    .default([]),
  translations: z
    .array(
      z.union([
        z.looseObject({ id: z.string().optional(), title: z.string() }),
        z.looseObject({
          id: z.string().optional(),
          source: z.object({ space: z.string(), language: z.string() }),
          language: z.string(),
          instructions: z.record(z.string(), z.unknown()).nullable().optional(),
        }),
      ]),
    )
    .default([]),
  settings: z
    .looseObject({
      inviteLinks: z.boolean().optional(),
      sso: z.boolean().optional(),
      ai: z.boolean().optional(),
    })
    .optional(),
});
export const Seed = z.looseObject({
  organizations: z.array(organization).default([]),
  tokenUser: z.string().nullable().optional(),
});
export type Seed = z.infer<typeof Seed>;

/** A seed already in the emulator's own state format (as `GET /_emulator/state` returns it). */
function isStateDump(value: unknown): value is EmulatorState {
  const orgs = (value as { organizations?: unknown[] })?.organizations;
  return (
    Array.isArray(orgs) &&
    orgs.length > 0 &&
    typeof orgs[0] === 'object' &&
    orgs[0] !== null &&
    'sites' in orgs[0] &&
    'customFields' in orgs[0] &&
    // A seed never carries createdAt; without it, a seed with no sites looked like a dump.
    'createdAt' in orgs[0] &&
    Array.isArray((orgs[0] as EmuOrganization).sites) &&
    (orgs[0] as EmuOrganization).sites.every((s) => 'siteSpaces' in s && 'groups' in s)
  );
}

/** Ids the seed leaves out are derived from a counter, so the same seed gives the same state. */
function idMaker(): (prefix: string) => string {
  let n = 0;
  return (prefix) => `${prefix}_s${(n += 1).toString().padStart(4, '0')}`;
}

export function stateFromSeed(input: unknown): EmulatorState {
  if (isStateDump(input)) return structuredClone(input);
  const seed = Seed.parse(input ?? {});
  const newId = idMaker();
  const created = CREATED;
  const state: EmulatorState = {
    ...(seed.tokenUser !== undefined ? { tokenUser: seed.tokenUser } : {}),
    organizations: seed.organizations.map((o): EmuOrganization => {
      const members = o.members.map((m, i) => ({
        user: { id: m.id, email: m.email, displayName: m.displayName ?? m.email.split('@')[0]! },
        role: m.role ?? 'read',
        joinedAt: new Date(Date.UTC(2024, 0, 1) + i * 1000).toISOString(),
        disabled: false,
      }));
      const userId = (ref: string) =>
        members.find((m) => m.user.id === ref || m.user.email.toLowerCase() === ref.toLowerCase())?.user.id ??
        ref;
      return {
        id: o.id,
        title: o.title,
        createdAt: created,
        emailDomains: o.emailDomains,
        hostname: o.hostname ?? null,
        defaultRole: o.defaultRole ?? null,
        ...(o.logo ? { logo: o.logo } : {}),
        inviteLinks: o.settings?.inviteLinks ?? false,
        sso: o.settings?.sso ?? false,
        ai: o.settings?.ai ?? false,
        members,
        collections: o.collections.map((c) => ({
          id: c.id,
          title: c.title,
          description: c.description ?? null,
          parent: c.parent ?? null,
          defaultLevel: null,
        })),
        spaces: o.spaces.map((s) => ({
          id: s.id,
          title: s.title,
          emoji: s.emoji ?? '📄',
          visibility: s.visibility ?? (s.parent ? 'in-collection' : 'private'),
          parent: s.parent ?? null,
          editMode: 'live',
          defaultLevel: null,
          createdAt: created,
          updatedAt: created,
          customFields: Object.assign(Object.create(null) as Record<string, string>, s.customFields ?? {}),
        })),
        teams: o.teams.map((t) => ({
          id: t.id ?? newId('team'),
          title: t.title,
          createdAt: created,
          members: t.members.map((m) =>
            typeof m === 'string'
              ? { userId: userId(m), role: 'member' as const }
              : { userId: userId(m.user), role: m.role },
          ),
        })),
        customFields: o.customFields.map((f) => ({
          id: f.id ?? newId('cf'),
          name: f.name,
          type: f.type,
          title: f.title ?? null,
          description: f.description ?? null,
          placeholder: f.placeholder ?? null,
          options: f.options ?? null,
          createdAt: created,
          updatedAt: created,
        })),
        sites: o.sites.map((s) => siteFromSeed(o.id, s, o.spaces, newId)),
        defaultContent: o.defaultContent ?? null,
        openapi: o.openapi.map((x) => ({
          id: newId('oas'),
          slug: x.slug,
          ...(typeof x.source === 'string' ? { source: x.source } : { source: null, text: x.source.text }),
          createdAt: created,
          updatedAt: created,
          ...(x.visibility ? { visibility: x.visibility } : {}),
        })),
        saml: o.saml.map((x) => ({
          id: x.id ?? newId('saml'),
          label: x.label,
          entityID: x.entityID ?? null,
          ssoURL: x.ssoURL ?? null,
          certificate: x.certificate ?? null,
          defaultTeam: x.defaultTeam ?? null,
          defaultRole: x.defaultRole ?? null,
          createdAt: created,
        })),
        translations: o.translations.map((x) => ({
          id: x.id ?? newId('tr'),
          ...(typeof x.title === 'string'
            ? { title: x.title }
            : {
                source: x.source as { space: string; language: string },
                language: x.language as string,
                instructions: (x.instructions as Record<string, unknown> | null | undefined) ?? null,
              }),
          createdAt: created,
          updatedAt: created,
        })),
        // The lists of declared kinds held by an organization, as each kind's emulator part says.
        ...seedDeclared('organizations', o, { org: o.id }, newId, created),
      };
    }),
  };
  // Grants name teams and members: set once the organization holds them.
  state.organizations.forEach((org, i) => seedGrants(org, seed.organizations[i]!));
  return state;
}

/** The `access:` lists of a seed's spaces, collections and sites (today's API's grants). */
function seedGrants(org: EmuOrganization, o: z.infer<typeof organization>): void {
  const holders: [{ id: string; access?: EmuGrant[] }[], Record<string, unknown>[]][] = [
    [org.spaces, o.spaces],
    [org.collections, o.collections],
    [org.sites, o.sites],
  ];
  for (const [made, seeded] of holders)
    seeded.forEach((entry, i) => {
      const access = grantsFromSeed(org, entry['access']);
      if (access && made[i]) made[i].access = access;
    });
}

/** When everything a seed makes was made. */
const CREATED = '2024-01-01T00:00:00.000Z';

function siteFromSeed(
  org: string,
  s: z.infer<typeof site>,
  spaces: { id: string; title: string }[],
  newId: (prefix: string) => string,
): EmuSite {
  const groups: EmuGroup[] = s.sectionGroups.map((g) => ({
    id: g.id ?? newId('sitesg'),
    title: g.title,
    icon: g.icon ?? null,
    ...(g.draft ? { draft: true } : {}),
    ...(g.localizedTitle ? { localizedTitle: g.localizedTitle } : {}),
  }));
  s.sectionGroups.forEach((g, i) => {
    const parent = g.parent ? groups.find((x) => x.id === g.parent || x.title === g.parent) : undefined;
    if (parent) groups[i]!.parentId = parent.id;
  });
  const result: EmuSite = {
    id: s.id ?? newId('site'),
    type: 'basic',
    title: s.title,
    visibility: s.visibility,
    published: s.published,
    basename: s.basename ?? null,
    hostname: null,
    agentsContext: s.agentsContext,
    adaptiveContent: s.adaptiveContent ?? { enabled: false },
    proxy: s.proxy ?? null,
    ...(s.defaultLevel ? { defaultLevel: s.defaultLevel } : {}),
    createdAt: CREATED,
    adaptiveSchema: null,
    adaptiveSchemaUpdatedAt: null,
    defaultSectionId: null,
    defaultRootSiteSpaceId: null,
    sections: [],
    groups,
    siteSpaces: [],
    shareLinks: [],
  };
  // The lists of declared kinds held by a site (its share links): as each kind's emulator part says.
  Object.assign(result, seedDeclared('sites', s, { org, site: result.id }, newId, CREATED));
  // Its face (today's API): the keys a seed gives, over the defaults of a new site.
  Object.assign(result, siteFaceFromSeed(s));
  const addSpaces = (list: z.infer<typeof siteSpace>[], sectionId: string | null) => {
    const taken = new Set<string>();
    let def: string | null = null;
    for (const ss of list) {
      const title = () => spaces.find((x) => x.id === ss.space)?.title ?? ss.space;
      const path = ss.path ?? uniquePath(slugify(title(), 'space'), taken);
      taken.add(path);
      const id = ss.id ?? newId('sitesp');
      result.siteSpaces.push({
        id,
        spaceId: ss.space,
        sectionId,
        path,
        condition: ss.condition ?? null,
        ...(ss.draft ? { draft: true } : {}),
        ...(ss.hidden ? { hidden: true } : {}),
        ...(ss.pageId ? { pageId: ss.pageId } : {}),
        ...(ss.customization ? { customization: ss.customization } : {}),
      });
      if (def === null || ss.default) def = id;
    }
    return def;
  };
  const takenSections = new Set<string>();
  for (const sec of s.sections) {
    const id = sec.id ?? newId('sitesc');
    const path = sec.path ?? uniquePath(slugify(sec.title, 'section'), takenSections);
    takenSections.add(path);
    const group = sec.sectionGroup
      ? groups.find((g) => g.id === sec.sectionGroup || g.title === sec.sectionGroup)
      : undefined;
    result.sections.push({
      id,
      title: sec.title,
      path,
      description: sec.description ?? null,
      condition: sec.condition ?? null,
      icon: sec.icon ?? null,
      groupId: group?.id ?? null,
      defaultSiteSpaceId: null,
      ...(sec.draft ? { draft: true } : {}),
      ...(sec.localizedTitle ? { localizedTitle: sec.localizedTitle } : {}),
      ...(sec.localizedDescription ? { localizedDescription: sec.localizedDescription } : {}),
    });
    result.sections.at(-1)!.defaultSiteSpaceId = addSpaces(sec.siteSpaces, id);
    if (result.defaultSectionId === null || sec.default) result.defaultSectionId = id;
  }
  result.defaultRootSiteSpaceId = addSpaces(s.siteSpaces, null);
  return result;
}
