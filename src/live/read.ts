import type { ApiClient } from '../api/client.js';
import type { SiteSection } from '../kinds/site-section.js';
import type { SiteSpace as ApiSiteSpace } from '../kinds/site-space.js';
import type { DesiredOrganization, DesiredSite, DesiredState } from '../model/desired.js';
import {
  anySiteFacets,
  anyListKinds,
  anyObjectKinds,
  anySiteListKinds,
  anySpaceFacets,
  collectionKind,
  listIn,
} from '../kinds/registry.js';
import type { LiveOrganization, LiveSection, LiveSite, LiveSiteSpace, LiveState } from '../model/live.js';

export type ReadProgress = { listsDone: number; listsStarted: number };

/** Counts list reads for the progress line. */
class Tracker {
  done = 0;
  started = 0;
  constructor(private readonly onProgress?: (p: ReadProgress) => void) {}
  async track<T>(work: Promise<T>): Promise<T> {
    this.started += 1;
    this.report();
    try {
      return await work;
    } finally {
      this.done += 1;
      this.report();
    }
  }
  private report() {
    this.onProgress?.({ listsDone: this.done, listsStarted: this.started });
  }
}

const liveSiteSpace = (ss: ApiSiteSpace): LiveSiteSpace => ({
  id: ss.id,
  space: ss.space.id,
  path: ss.path,
  condition: ss.condition ?? null,
  default: ss.default ?? false,
});

const liveSection = (s: SiteSection): LiveSection => ({
  id: s.id,
  path: s.path,
  title: s.title,
  icon: s.icon ?? null,
  description: s.description ?? null,
  condition: s.condition ?? null,
  default: s.default ?? false,
  group: s.sectionGroup ?? null,
  spaces: s.siteSpaces.map(liveSiteSpace),
});

/** Strip the scheme the API puts on `proxy.origin`, giving the config's `company.com/docs` form. */
export function proxyFromOrigin(origin: string): string {
  return origin.replace(/^[a-z]+:\/\//i, '').replace(/\/+$/, '');
}

/**
 * Read the live state of every organization the config describes, through list endpoints only,
 * scoped to what the config manages. Independent lists are read concurrently (the client's queue
 * bounds concurrency).
 */

export async function readLive(
  api: ApiClient,
  desired: DesiredState,
  onProgress?: (p: ReadProgress) => void,
): Promise<LiveState> {
  const tracker = new Tracker(onProgress);
  // One organization that cannot be read does not stop the others from being planned.
  const organizations = await Promise.all(
    desired.organizations.map((org) =>
      readOrganization(api, org, tracker).catch((error: unknown) => ({
        id: org.id,
        readError: (error as Error).message,
      })),
    ),
  );
  return { organizations };
}

/** What to read of one organization: the config's scope, or everything (export). */
export type ReadScope = {
  /** Keys of the object kinds (the organization's settings) to read. */
  objects: string[];
  collections: boolean;
  /** Keys of the list kinds (src/kinds/registry.ts) to read. */
  lists: string[];
  /** Spaces whose own fields (title, emoji, parent…) are managed: one GET each. */
  spaceDetails: string[];
  /** Spaces whose facets (custom field values) are managed: one GET each per facet. */
  spaceIds: string[];
  /** The config the scope comes from (undefined for export: read everything below the lists too). */
  desired?: DesiredOrganization;
  sites: boolean;
  /** Which lists of a live site to read; undefined: nothing below the site. */
  siteScope: (site: { id: string; title: string }) => SiteLists | undefined;
};

export type SiteLists = {
  sections: boolean;
  groups: boolean;
  spaces: boolean;
  /** Keys of the site list kinds (src/kinds/registry.ts) to read. */
  lists: string[];
  /** Keys of the site facets (src/kinds/registry.ts) to read. */
  facets: string[];
};

/** The scope a config implies: only the kinds it manages, only the sites and teams it describes. */
export function scopeOf(org: DesiredOrganization): ReadScope {
  // A live site the config may pair with: by pin, by title, or by an earlier title (`previously`).
  const desiredFor = (site: { id: string; title: string }): DesiredSite | undefined =>
    org.sites?.find((d) => d.id === site.id) ??
    org.sites?.find((d) => !d.id && d.title === site.title) ??
    org.sites?.find((d) => !d.id && d.previously?.includes(site.title));
  return {
    objects: anyObjectKinds
      .filter((k) => (org as Record<string, unknown>)[k.key] !== undefined)
      .map((k) => k.key),
    collections: collectionKind.read.wanted(org),
    lists: anyListKinds.filter((k) => listIn(org, k.key) !== undefined).map((k) => k.key),
    spaceDetails: (org.spaces ?? []).filter(collectionKind.spaces.managesFields).map((s) => s.id),
    spaceIds: (org.spaces ?? [])
      .filter((s) => anySpaceFacets.some((f) => listIn(s, f.key) !== undefined))
      .map((s) => s.id),
    desired: org,
    sites: org.sites !== undefined,
    siteScope: (site) => {
      const d = desiredFor(site);
      if (!d) return undefined;
      return {
        sections: d.sections !== undefined || d.sectionGroups !== undefined,
        groups: d.sectionGroups !== undefined,
        spaces: d.spaces !== undefined,
        lists: anySiteListKinds.filter((k) => listIn(d, k.key) !== undefined).map((k) => k.key),
        facets: anySiteFacets
          .filter((f) => (d as Record<string, unknown>)[f.key] !== undefined)
          .map((f) => f.key),
      };
    },
  };
}

/** The scope of `docsync export`: every kind, every site and team. */
export const everything = (spaceIds: string[] = []): ReadScope => ({
  objects: anyObjectKinds.map((k) => k.key),
  collections: true,
  lists: anyListKinds.map((k) => k.key),
  spaceDetails: spaceIds,
  spaceIds,
  sites: true,
  siteScope: () => ({
    sections: true,
    groups: true,
    spaces: true,
    lists: anySiteListKinds.map((k) => k.key),
    facets: anySiteFacets.map((f) => f.key),
  }),
});

export async function readOrganization(
  api: ApiClient,
  org: DesiredOrganization,
  tracker = new Tracker(),
): Promise<LiveOrganization> {
  return readScoped(api, org.id, scopeOf(org), tracker);
}

export async function readScoped(
  api: ApiClient,
  orgId: string,
  scope: ReadScope,
  tracker = new Tracker(),
): Promise<LiveOrganization> {
  const t = <T>(p: Promise<T>) => tracker.track(p);
  const [spaceValues, sites, extra] = await Promise.all([
    readSpaceFacets(api, scope.spaceIds, t),
    scope.sites ? readSites(api, orgId, scope, t) : undefined,
    readAdministration(api, orgId, scope, t),
  ]);
  const spaces = collectionKind.spaces.merge(spaceValues, extra.spaceDetails);
  return {
    id: orgId,
    ...extra.org,
    ...(spaces ? { spaces } : {}),
    ...(sites ? { sites } : {}),
  };
}

/** Organization settings, members, collections, spaces' own fields, OpenAPI specs, SAML, translations. */
async function readAdministration(api: ApiClient, orgId: string, scope: ReadScope, t: Track) {
  const [objects, self, collections, details, lists] = await Promise.all([
    Promise.all(
      anyObjectKinds
        .filter((kind) => scope.objects.includes(kind.key))
        .map(async (kind) => [
          kind.key,
          kind.read.live((await t(api.request(kind.read.call(orgId)))) as never),
        ]),
    ),
    // The user the token belongs to, for the kinds that must never remove it.
    anyListKinds.some((k) => k.needsSelf && scope.lists.includes(k.key))
      ? t(api.currentUser()).catch(() => null)
      : undefined,
    scope.collections ? t(api.list(collectionKind.read.list(orgId))) : undefined,
    Promise.all(
      scope.spaceDetails.map(async (id) =>
        collectionKind.spaces.read.live((await t(api.request(collectionKind.spaces.read.call(id)))) as never),
      ),
    ),
    readLists(api, orgId, scope, t),
  ]);
  const result: Partial<LiveOrganization> = { ...Object.fromEntries(objects), ...lists };
  if (self !== undefined) result.self = self?.id ?? null;
  if (collections) result.collections = collections.map(collectionKind.read.live);
  return { org: result, spaceDetails: details.length > 0 ? details : undefined };
}

type Track = <T>(p: Promise<T>) => Promise<T>;

/** Secrets an export writes out but the live model never holds (certificates), by object id. */
export async function exportSecrets(api: ApiClient, orgId: string): Promise<Map<string, string>> {
  const pairs = await Promise.all(
    anyListKinds.map(async (kind) => {
      const secrets = kind.exportSecrets;
      if (!secrets || api.capabilities.absent.includes(kind.kind)) return [];
      const items = await api.list(secrets.list(orgId));
      return items.flatMap((item) => {
        const pair = secrets.pick(item as never);
        return pair ? [pair] : [];
      });
    }),
  );
  return new Map(pairs.flat());
}

/** The list kinds in scope, each read as its module declares, where the API has it. */
async function readLists(api: ApiClient, orgId: string, scope: ReadScope, t: Track) {
  const reads = anyListKinds
    .filter((kind) => scope.lists.includes(kind.key))
    .flatMap((kind) =>
      kind.reads
        .filter((read) =>
          read.readOnly
            ? api.capabilities.readOnly.includes(kind.kind)
            : !api.capabilities.absent.includes(kind.kind),
        )
        .map(async (read) => {
          const items = (await t(api.list(read.list(orgId)))).map((x) => read.live(x as never));
          const children = read.children;
          const desired = scope.desired ? (listIn(scope.desired, kind.key) ?? []) : undefined;
          const full = children
            ? await Promise.all(
                items.map(async (item) =>
                  desired && !children.wanted(item as never, desired as never[])
                    ? item
                    : children.attach(
                        item as never,
                        (await t(api.list(children.list(orgId, item as never)))) as never[],
                      ),
                ),
              )
            : items;
          return { key: kind.key, readOnly: read.readOnly, items: full };
        }),
    );
  const result: Partial<LiveOrganization> = {};
  for (const { key, readOnly, items } of await Promise.all(reads))
    if (readOnly) result.readOnly = { ...result.readOnly, [key]: items };
    else Object.assign(result, { [key]: items });
  return result;
}

/** The facets of the named spaces (their custom field values), where the API has them: one GET each. */
async function readSpaceFacets(api: ApiClient, ids: string[], t: Track): Promise<LiveOrganization['spaces']> {
  const facets = anySpaceFacets.filter((f) => !api.capabilities.absent.includes(f.kind));
  if (ids.length === 0 || facets.length === 0) return undefined;
  return Promise.all(
    ids.map(async (id) => {
      const values = await Promise.all(
        facets.map(async (f) => [f.key, f.live((await t(api.request(f.read(id)))) as never)] as const),
      );
      return { id, ...Object.fromEntries(values) } as NonNullable<LiveOrganization['spaces']>[number];
    }),
  );
}

async function readSites(api: ApiClient, orgId: string, scope: ReadScope, t: Track): Promise<LiveSite[]> {
  const sites = await t(api.listSites(orgId));
  return Promise.all(
    sites.map(async (site): Promise<LiveSite> => {
      const base: LiveSite = {
        id: site.id,
        title: site.title,
        visibility: site.visibility,
        basename: site.basename ?? null,
        agentsContext: site.agentsContext ?? null,
        adaptiveContent: site.adaptiveContent ? { enabled: site.adaptiveContent.enabled } : null,
        proxy: site.proxy ? proxyFromOrigin(site.proxy.origin) : null,
        ...Object.fromEntries(
          anySiteFacets.flatMap((f) => {
            const value = 'fromSite' in f.read ? f.read.fromSite(site) : undefined;
            return value === undefined ? [] : [[f.key, value]];
          }),
        ),
      };
      const lists = scope.siteScope(site);
      if (!lists) return base;
      const [sections, groups, siteSpaces, kindLists, facets] = await Promise.all([
        lists.sections ? t(api.listSections(orgId, site.id)) : undefined,
        lists.groups ? t(api.listSectionGroups(orgId, site.id)) : undefined,
        lists.spaces ? t(api.listSiteSpaces(orgId, site.id)) : undefined,
        Promise.all(
          anySiteListKinds
            .filter((kind) => lists.lists.includes(kind.key))
            .map(async (kind) => {
              const items = await t(api.list(kind.read.list(orgId, site.id)));
              return [kind.key, items.map((item) => kind.read.live(item as never))] as const;
            }),
        ),
        Promise.all(
          anySiteFacets
            .flatMap((f) =>
              'call' in f.read && lists.facets.includes(f.key) ? [{ key: f.key, read: f.read }] : [],
            )
            .map(
              async ({ key, read }) =>
                [key, read.live((await t(api.request(read.call(orgId, site.id)))) as never)] as const,
            ),
        ),
      ]);
      return {
        ...base,
        ...Object.fromEntries(facets),
        ...(sections ? { sections: sections.map(liveSection) } : {}),
        ...(groups
          ? { sectionGroups: groups.map((g) => ({ id: g.id, title: g.title, icon: g.icon ?? null })) }
          : {}),
        ...(siteSpaces ? { spaces: siteSpaces.filter((ss) => !ss.section).map(liveSiteSpace) } : {}),
        ...Object.fromEntries(kindLists),
      };
    }),
  );
}
