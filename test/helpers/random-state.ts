import type { DesiredOrganization } from '../../src/reconcile/index.js';
import type { DesiredSite } from '../../src/kinds/site.js';
import { memberRoles } from '../../src/model/kinds.js';

export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(r: () => number, items: readonly T[]): T => items[Math.floor(r() * items.length)]!;
function shuffle<T>(r: () => number, items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(r() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

const SPACES = Array.from({ length: 12 }, (_, i) => `space_${i + 1}`);
const USERS = ['user_a', 'b@example.com', 'user_c', 'd@example.com'];
const PATHS = ['a', 'b', 'c', 'd', 'e', 'f'];

/** A random site structure: sections from a random subset of spaces, in random order. */
function randomSections(r: () => number) {
  const spaces = shuffle(r, SPACES).slice(0, 2 + Math.floor(r() * 8));
  const paths = shuffle(r, PATHS).slice(0, 1 + Math.floor(r() * Math.min(4, spaces.length)));
  const sections = paths.map((path) => ({
    path,
    title: `Section ${path.toUpperCase()}${r() < 0.3 ? ' v2' : ''}`,
    spaces: [] as { space: string; path?: string; default?: boolean }[],
  }));
  spaces.forEach((space, i) =>
    sections[i % sections.length]!.spaces.push({
      space,
      ...(r() < 0.5 ? { path: `p-${space.slice(6)}${r() < 0.3 ? 'x' : ''}` } : {}),
    }),
  );
  for (const s of sections) if (r() < 0.4) pick(r, s.spaces).default = true;
  return sections.filter((s) => s.spaces.length > 0);
}

export function randomDesired(r: () => number): DesiredOrganization {
  const sites: DesiredSite[] = [];
  for (const title of ['Docs', 'Guides']) {
    if (r() < 0.3) continue;
    const sections = randomSections(r);
    const groupPaths = shuffle(
      r,
      sections.map((s) => s.path),
    );
    const site: DesiredSite = {
      title,
      ...(r() < 0.5 ? { visibility: pick(r, ['public', 'unlisted', 'share-link'] as const) } : {}),
      ...(r() < 0.5 ? { basename: pick(r, ['docs', 'help', 'kb']) } : {}),
      ...(r() < 0.3 ? { proxy: r() < 0.5 ? null : 'company.com/docs' } : {}),
      sections: sections.map((s, i) => ({
        ...s,
        ...(i === 0 && r() < 0.5 ? { default: true } : {}),
        ...(r() < 0.3 ? { icon: pick(r, ['book', null]) } : {}),
      })),
      ...(r() < 0.6
        ? {
            sectionGroups: [
              { title: 'G1', sections: groupPaths.slice(0, 1) },
              { title: 'G2', sections: groupPaths.slice(1, 2) },
            ].slice(0, 1 + Math.floor(r() * 2)),
          }
        : {}),
      ...(r() < 0.6
        ? {
            shareLinks: shuffle(r, ['p1', 'p2', 'p3'])
              .slice(0, Math.floor(r() * 3))
              .map((name) => ({ name, ...(r() < 0.5 ? { active: r() < 0.5 } : {}) })),
          }
        : {}),
    };
    if (r() < 0.3) site.adaptiveSchema = randomAdaptiveSchema(r);
    sites.push(site);
  }
  const org: DesiredOrganization = {
    id: 'org_t',
    policy: { prune: r() < 0.6, maxDeletes: 1000 },
    ...(r() < 0.7
      ? {
          customFields: shuffle(r, ['owner', 'tier', 'team'])
            .slice(0, 1 + Math.floor(r() * 3))
            .map((name) => ({ name, type: 'text' as const, ...(r() < 0.5 ? { title: `T ${name}` } : {}) })),
        }
      : {}),
    ...(r() < 0.7
      ? {
          teams: shuffle(r, ['Writers', 'Reviewers', 'Ops'])
            .slice(0, 1 + Math.floor(r() * 3))
            .map((title) => ({
              title,
              ...(r() < 0.7
                ? {
                    members: shuffle(r, USERS)
                      .slice(0, Math.floor(r() * 4))
                      .map((user) => ({ user, role: pick(r, ['owner', 'member'] as const) })),
                  }
                : {}),
            })),
        }
      : {}),
    sites,
  };
  return { ...org, ...randomOrganizationKinds(r, org) };
}

/**
 * The same organization for the current API: it has no custom fields and no translations by
 * title, and it can publish a site.
 */
export function forCurrentApi(r: () => number, org: DesiredOrganization): DesiredOrganization {
  const { customFields: _fields, translations: _translations, ...rest } = org;
  return {
    ...rest,
    ...(org.spaces ? { spaces: org.spaces.map(({ customFields: _values, ...space }) => space) } : {}),
    sites: (org.sites ?? []).map((site) => (r() < 0.6 ? { ...site, published: r() < 0.5 } : site)),
  };
}

const roleOrNull = [...memberRoles, null] as const;

function randomAdaptiveSchema(r: () => number): Record<string, unknown> {
  const claims = shuffle(r, ['beta', 'plan', 'region']).slice(0, Math.floor(r() * 3));
  return {
    type: 'object',
    additionalProperties: false,
    properties: {
      unsigned: {
        type: 'object',
        // The current API requires a description on every claim object.
        description: 'Unsigned claims of the visitor',
        additionalProperties: false,
        properties: Object.fromEntries(
          claims.map((c) => [
            c,
            { type: c === 'beta' ? 'boolean' : 'string', description: `The ${c} claim` },
          ]),
        ),
      },
    },
  };
}

/**
 * The organization-level kinds beyond sites, teams and custom fields: settings, member roles,
 * collections, spaces (metadata and custom-field values), OpenAPI specs, SAML providers and
 * translations, each present or not, over names that collide with `randomLiveSeed`'s.
 */
function randomOrganizationKinds(r: () => number, org: DesiredOrganization): Partial<DesiredOrganization> {
  const out: Partial<DesiredOrganization> = {};
  if (r() < 0.5)
    out.settings = {
      ...(r() < 0.7 ? { title: pick(r, ['Acme', 'Acme Docs']) } : {}),
      ...(r() < 0.5 ? { defaultRole: pick(r, roleOrNull) } : {}),
      ...(r() < 0.5 ? { inviteLinks: r() < 0.5 } : {}),
      ...(r() < 0.5 ? { ai: r() < 0.5 } : {}),
      ...(org.sites!.length > 0 && r() < 0.5 ? { defaultContent: { site: pick(r, org.sites!).title } } : {}),
    };
  // Every member is listed (the token's own user aside), so pruning never removes a team member.
  if (r() < 0.5)
    out.members = ['b@example.com', 'user_c', 'd@example.com'].map((user) => ({
      user,
      role: pick(r, memberRoles),
    }));
  const collections = shuffle(r, ['Product', 'APIs', 'Legacy']).slice(0, Math.floor(r() * 4));
  if (r() < 0.5)
    out.collections = collections.map((title, i) => ({
      title,
      ...(r() < 0.4 ? { description: `About ${title}` } : {}),
      ...(r() < 0.5 ? { defaultLevel: pick(r, roleOrNull) } : {}),
      ...(i > 0 && r() < 0.5 ? { parent: collections[i - 1]! } : r() < 0.3 ? { parent: null } : {}),
    }));
  const fields = (org.customFields ?? []).map((f) => f.name);
  if (r() < 0.5)
    out.spaces = shuffle(r, SPACES.slice(0, 4))
      .slice(0, 1 + Math.floor(r() * 3))
      .map((id) => ({
        id,
        ...(r() < 0.4 ? { title: `Renamed ${id}` } : {}),
        ...(r() < 0.3 ? { emoji: pick(r, ['🚀', '📘']) } : {}),
        ...(r() < 0.3 ? { editMode: pick(r, ['live', 'locked'] as const) } : {}),
        ...(out.collections && r() < 0.5
          ? { parent: out.collections.length > 0 && r() < 0.7 ? pick(r, out.collections).title : null }
          : {}),
        ...(fields.length > 0 && r() < 0.6
          ? {
              customFields: Object.fromEntries(
                shuffle(r, fields)
                  .slice(0, 1 + Math.floor(r() * fields.length))
                  .map((name) => [name, r() < 0.2 ? null : `${name}-${Math.floor(r() * 3)}`]),
              ),
            }
          : {}),
      }));
  if (r() < 0.5)
    out.openapi = shuffle(r, ['petstore', 'billing'])
      .slice(0, Math.floor(r() * 3))
      .map((slug) => ({ slug, source: `https://example.com/${slug}-v${1 + Math.floor(r() * 2)}.yaml` }));
  if (r() < 0.5)
    out.saml = shuffle(r, ['Okta', 'Azure'])
      .slice(0, Math.floor(r() * 3))
      .map((label) => ({
        label,
        ...(r() < 0.5
          ? { entityID: `https://idp.example.com/${label.toLowerCase()}/${Math.floor(r() * 2)}` }
          : {}),
        ...(r() < 0.3 ? { ssoURL: `https://idp.example.com/${label.toLowerCase()}/sso` } : {}),
        ...(org.teams && org.teams.length > 0 && r() < 0.4 ? { defaultTeam: pick(r, org.teams).title } : {}),
        ...(r() < 0.4 ? { defaultRole: pick(r, roleOrNull) } : {}),
      }));
  if (r() < 0.5)
    out.translations = shuffle(r, ['French', 'German', 'Japanese'])
      .slice(0, Math.floor(r() * 3))
      .map((title) => ({ title }));
  return out;
}

/** Live counterparts of `randomOrganizationKinds`, as seed fields of the organization. */
function randomLiveOrganizationKinds(r: () => number): Record<string, unknown> {
  const collections = shuffle(r, ['Legacy', 'Old', 'Product'])
    .slice(0, Math.floor(r() * 4))
    .map((title, i) => ({ id: `col_${i + 1}`, title }));
  return {
    title: pick(r, ['Acme', 'Organization']),
    defaultRole: pick(r, roleOrNull),
    settings: { inviteLinks: r() < 0.5, ai: r() < 0.5 },
    collections,
    spaces: SPACES.map((id) => ({
      id,
      title: `Title ${id}`,
      ...(collections.length > 0 && r() < 0.3 ? { parent: pick(r, collections).id } : {}),
    })),
    openapi: shuffle(r, ['billing', 'old-api'])
      .slice(0, Math.floor(r() * 3))
      .map((slug) => ({ slug, source: `https://example.com/${slug}-v1.yaml` })),
    saml: shuffle(r, ['Azure', 'Legacy IdP'])
      .slice(0, Math.floor(r() * 3))
      .map((label) => ({ label, entityID: `https://idp.example.com/${label.toLowerCase()}/0` })),
    translations: shuffle(r, ['German', 'Klingon'])
      .slice(0, Math.floor(r() * 3))
      .map((title) => ({ title })),
  };
}

/** A random live organization, as an emulator seed, over the same names (so pairs collide). */
export function randomLiveSeed(r: () => number): Record<string, unknown> {
  const sites = ['Docs', 'Guides', 'Old']
    .filter(() => r() < 0.6)
    .map((title) => ({
      title,
      sections: randomSections(r).map((s) => ({
        title: s.title,
        path: s.path,
        siteSpaces: s.spaces.map((x) => ({ space: x.space, ...(x.path ? { path: x.path } : {}) })),
      })),
      shareLinks: shuffle(r, ['p1', 'p2', 'old'])
        .slice(0, Math.floor(r() * 3))
        .map((name) => ({ name, active: r() < 0.5 })),
      sectionGroups: r() < 0.5 ? [{ title: 'G1' }, { title: 'Old group' }] : [],
    }));
  return {
    tokenUser: 'user_a',
    organizations: [
      {
        id: 'org_t',
        members: [
          { id: 'user_a', email: 'a@example.com', role: 'admin' },
          { id: 'user_b', email: 'b@example.com', role: pick(r, memberRoles) },
          { id: 'user_c', email: 'c@example.com', role: pick(r, memberRoles) },
          { id: 'user_d', email: 'd@example.com', role: pick(r, memberRoles) },
        ],
        ...randomLiveOrganizationKinds(r),
        customFields: shuffle(r, ['owner', 'legacy'])
          .slice(0, Math.floor(r() * 2))
          .map((name) => ({ name, type: 'text' })),
        teams: shuffle(r, ['Writers', 'Old team'])
          .slice(0, Math.floor(r() * 2))
          .map((title) => ({
            title,
            members: shuffle(r, ['user_a', 'user_b', 'user_c']).slice(0, Math.floor(r() * 3)),
          })),
        sites,
      },
    ],
  };
}
