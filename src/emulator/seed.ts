import { seedDeclared } from './declared.js';
import { grantsFromSeed } from './routes/permissions.js';
import { Seed, type SeedOrganization } from './seed-schema.js';
import { CREATED, siteFromSeed, type NewId } from './seed-site.js';
import type { EmuGrant, EmuOrganization, EmulatorState } from './state.js';

export { Seed } from './seed-schema.js';

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
  const state: EmulatorState = {
    ...(seed.tokenUser !== undefined ? { tokenUser: seed.tokenUser } : {}),
    organizations: seed.organizations.map((o) => organizationFromSeed(o, newId)),
  };
  // Grants name teams and members: set once the organization holds them.
  state.organizations.forEach((org, i) => seedGrants(org, seed.organizations[i]!));
  return state;
}

/**
 * An organization and all it holds. The ids a seed leaves out come from one counter, in this
 * order: teams, custom fields, sites, OpenAPI specs, SAML providers, translations, declared kinds.
 */
function organizationFromSeed(o: SeedOrganization, newId: NewId): EmuOrganization {
  const members = membersFromSeed(o);
  return {
    id: o.id,
    title: o.title,
    createdAt: CREATED,
    emailDomains: o.emailDomains,
    hostname: o.hostname ?? null,
    defaultRole: o.defaultRole ?? null,
    ...(o.logo ? { logo: o.logo } : {}),
    inviteLinks: o.settings?.inviteLinks ?? false,
    sso: o.settings?.sso ?? false,
    ai: o.settings?.ai ?? false,
    members,
    collections: collectionsFromSeed(o),
    spaces: spacesFromSeed(o),
    teams: teamsFromSeed(o, members, newId),
    customFields: customFieldsFromSeed(o, newId),
    sites: o.sites.map((s) => siteFromSeed(o.id, s, o.spaces, newId)),
    defaultContent: o.defaultContent ?? null,
    openapi: openapiFromSeed(o, newId),
    saml: samlFromSeed(o, newId),
    translations: translationsFromSeed(o, newId),
    // The lists of declared kinds held by an organization, as each kind's emulator part says.
    ...seedDeclared('organizations', o, { org: o.id }, newId, CREATED),
  };
}

function membersFromSeed(o: SeedOrganization): EmuOrganization['members'] {
  return o.members.map((m, i) => ({
    user: { id: m.id, email: m.email, displayName: m.displayName ?? m.email.split('@')[0]! },
    role: m.role ?? 'read',
    joinedAt: new Date(Date.UTC(2024, 0, 1) + i * 1000).toISOString(),
    disabled: false,
  }));
}

function collectionsFromSeed(o: SeedOrganization): EmuOrganization['collections'] {
  return o.collections.map((c) => ({
    id: c.id,
    title: c.title,
    description: c.description ?? null,
    parent: c.parent ?? null,
    defaultLevel: null,
  }));
}

function spacesFromSeed(o: SeedOrganization): EmuOrganization['spaces'] {
  return o.spaces.map((s) => ({
    id: s.id,
    title: s.title,
    emoji: s.emoji ?? '📄',
    visibility: s.visibility ?? (s.parent ? 'in-collection' : 'private'),
    parent: s.parent ?? null,
    editMode: 'live',
    defaultLevel: null,
    createdAt: CREATED,
    updatedAt: CREATED,
    customFields: Object.assign(Object.create(null) as Record<string, string>, s.customFields ?? {}),
  }));
}

/** Teams, their members named by id or e-mail. */
function teamsFromSeed(
  o: SeedOrganization,
  members: EmuOrganization['members'],
  newId: NewId,
): EmuOrganization['teams'] {
  const userId = (ref: string) =>
    members.find((m) => m.user.id === ref || m.user.email.toLowerCase() === ref.toLowerCase())?.user.id ??
    ref;
  return o.teams.map((t) => ({
    id: t.id ?? newId('team'),
    title: t.title,
    createdAt: CREATED,
    members: t.members.map((m) =>
      typeof m === 'string'
        ? { userId: userId(m), role: 'member' as const }
        : { userId: userId(m.user), role: m.role },
    ),
  }));
}

function customFieldsFromSeed(o: SeedOrganization, newId: NewId): EmuOrganization['customFields'] {
  return o.customFields.map((f) => ({
    id: f.id ?? newId('cf'),
    name: f.name,
    type: f.type,
    title: f.title ?? null,
    description: f.description ?? null,
    placeholder: f.placeholder ?? null,
    options: f.options ?? null,
    createdAt: CREATED,
    updatedAt: CREATED,
  }));
}

function openapiFromSeed(o: SeedOrganization, newId: NewId): NonNullable<EmuOrganization['openapi']> {
  return o.openapi.map((x) => ({
    id: newId('oas'),
    slug: x.slug,
    ...(typeof x.source === 'string' ? { source: x.source } : { source: null, text: x.source.text }),
    createdAt: CREATED,
    updatedAt: CREATED,
    ...(x.visibility ? { visibility: x.visibility } : {}),
  }));
}

function samlFromSeed(o: SeedOrganization, newId: NewId): NonNullable<EmuOrganization['saml']> {
  return o.saml.map((x) => ({
    id: x.id ?? newId('saml'),
    label: x.label,
    entityID: x.entityID ?? null,
    ssoURL: x.ssoURL ?? null,
    certificate: x.certificate ?? null,
    defaultTeam: x.defaultTeam ?? null,
    defaultRole: x.defaultRole ?? null,
    createdAt: CREATED,
  }));
}

function translationsFromSeed(
  o: SeedOrganization,
  newId: NewId,
): NonNullable<EmuOrganization['translations']> {
  return o.translations.map((x) => ({
    id: x.id ?? newId('tr'),
    ...(typeof x.title === 'string'
      ? { title: x.title }
      : {
          source: x.source as { space: string; language: string },
          language: x.language as string,
          instructions: (x.instructions as Record<string, unknown> | null | undefined) ?? null,
        }),
    createdAt: CREATED,
    updatedAt: CREATED,
  }));
}

/** The `access:` lists of a seed's spaces, collections and sites (today's API's grants). */
function seedGrants(org: EmuOrganization, o: SeedOrganization): void {
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
