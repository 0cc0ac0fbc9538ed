import type { ApiClient } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import { errorCode } from '../errors.js';
import type { DesiredOrganization, DesiredState } from '../reconcile/index.js';
import {
  absentHere,
  readOnlyHere,
  anyListKinds,
  anyObjectKinds,
  anySpaceFacets,
  collectionKind,
  listIn,
  valueIn,
  diffsAhead,
} from '../kinds/registry.js';
import type { ChildRead } from '../kinds/types.js';
import type { LiveOrganization, LiveState } from '../reconcile/index.js';
import { referenceTargets } from '../plan/references.js';
import { withoutCredentials } from '../secrets/credentials.js';
import { holdsGrants } from '../kinds/grants.js';
import { ArrivingList } from '../model/arriving.js';
import { emptyList } from '../model/holey.js';

export type ReadProgress = { listsDone: number; listsStarted: number };

/**
 * A list kind's live list of one organization begins to be read: `list` tells, as it is read, its
 * items as paged, each item once the reads below it are done, and the array the live state holds
 * for it: what is diffed ahead starts from it (decision 43, sixth and eighth passes).
 */
export type OnListRead = (org: string, key: string, list: ArrivingList) => void;

/** Counts list reads for the progress line. */
class Tracker {
  done = 0;
  started = 0;
  constructor(private readonly onProgress?: (p: ReadProgress) => void) {}
  /** Not an async function: one per request, and no frame kept while it waits (as `await` in `try`/`finally`). */
  track<T>(work: Promise<T>): Promise<T> {
    this.started += 1;
    // A progress callback that throws rejects the read, as it did when this was an async function.
    try {
      this.report();
    } catch (error) {
      return Promise.reject(error);
    }
    return work.then(
      (value) => {
        this.ended();
        return value;
      },
      (error: unknown) => {
        this.ended();
        throw error;
      },
    );
  }
  private ended() {
    this.done += 1;
    this.report();
  }
  private report() {
    this.onProgress?.({ listsDone: this.done, listsStarted: this.started });
  }
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
  onListRead?: OnListRead,
): Promise<LiveState> {
  const tracker = new Tracker(onProgress);
  // One organization that cannot be read does not stop the others from being planned.
  const organizations = await Promise.all(
    desired.organizations.map((org) =>
      readOrganization(api, org, tracker, onListRead).catch((error: unknown) => ({
        id: org.id,
        readError: (error as Error).message,
        readFailure: {
          code: errorCode(error) ?? 'live-read-failed',
          ...(error instanceof ApiError ? { endpoint: `${error.method} ${error.route}` } : {}),
        },
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
  /** Read the user the token belongs to (a kind that must never remove its access is managed). */
  self?: boolean;
  /** The config the scope comes from (undefined for export: read everything below the lists too). */
  desired?: DesiredOrganization;
  /**
   * More list kinds to read, found by a walk over every entry of the config (the kinds its
   * references name without managing them): worked out once the first request is written, while
   * it is on its way, not before it (`HttpClient.written`).
   */
  named?: () => string[];
};

/** The scope a config implies: only the kinds it manages, only the sites and teams it describes. */
export function scopeOf(org: DesiredOrganization): ReadScope {
  const { named, ...scope } = scopeInSteps(org);
  return { ...scope, lists: [...scope.lists, ...named()] };
}

/**
 * `scopeOf`, the kinds the config names by reference left to `named`: what the config manages is
 * known at once, what its references name takes a walk over every entry (a site's every site
 * space), a tenth of a second of a large config's cold start.
 */
function scopeInSteps(org: DesiredOrganization): ReadScope & { named: () => string[] } {
  const lists = anyListKinds.filter((k) => listIn(org, k.key) !== undefined).map((k) => k.key);
  return {
    objects: anyObjectKinds.filter((k) => valueIn(org, k.key) !== undefined).map((k) => k.key),
    collections: collectionKind.read.wanted(org),
    lists,
    self: needsSelf(org),
    spaceDetails: (org.spaces ?? []).filter(collectionKind.spaces.managesFields).map((s) => s.id),
    spaceIds: (org.spaces ?? [])
      .filter((s) => anySpaceFacets.some((f) => listIn(s, f.key) !== undefined))
      .map((s) => s.id),
    desired: org,
    named: () => {
      // A kind the config names by title but does not manage (a SAML default team) is read too
      // (only its list): the diff needs the ids.
      const { named, needed } = referenceTargets(org);
      return anyListKinds
        .filter(
          (k) =>
            !lists.includes(k.key) &&
            ((k.lookup?.readWhenNamed === true && named.has(k.lookup.target)) ||
              (k.lookup !== undefined && needed.has(k.lookup.target))),
        )
        .map((k) => k.key);
    },
  };
}

/** Whether a facet that must never remove the token's own access is managed (grants). */
function needsSelf(org: DesiredOrganization): boolean {
  return holdsGrants(org);
}

/** The scope of `docsync export`: every kind, every site and team. */
export const everything = (spaceIds: string[] = []): ReadScope => ({
  objects: anyObjectKinds.map((k) => k.key),
  collections: true,
  lists: anyListKinds.map((k) => k.key),
  spaceDetails: spaceIds,
  spaceIds,
});

export async function readOrganization(
  api: ApiClient,
  org: DesiredOrganization,
  tracker = new Tracker(),
  onListRead?: OnListRead,
): Promise<LiveOrganization> {
  return readScoped(api, org.id, scopeInSteps(org), { tracker, ...(onListRead ? { onListRead } : {}) });
}

export async function readScoped(
  api: ApiClient,
  orgId: string,
  scope: ReadScope,
  options: {
    tracker?: Tracker;
    /** Filled with the secrets the live model never holds (certificates), by object id: for export. */
    secrets?: Map<string, string>;
    onListRead?: OnListRead;
  } = {},
): Promise<LiveOrganization> {
  const tracker = options.tracker ?? new Tracker();
  const t = <T>(p: Promise<T>) => tracker.track(p);
  const [spaceValues, extra] = await Promise.all([
    readSpaceFacets(api, scope.spaceIds, t),
    readAdministration(api, orgId, scope, t, options.secrets, options.onListRead),
  ]);
  const spaces = collectionKind.spaces.merge(spaceValues, extra.spaceDetails);
  return {
    id: orgId,
    ...extra.org,
    ...(spaces ? { spaces } : {}),
  };
}

/** Organization settings, collections, spaces' own fields, and every list kind (members, teams, sites…). */
async function readAdministration(
  api: ApiClient,
  orgId: string,
  scope: ReadScope,
  t: Track,
  secrets: Map<string, string> | undefined,
  onListRead: OnListRead | undefined,
) {
  const onList = onListRead ? (key: string, list: ArrivingList) => onListRead(orgId, key, list) : undefined;
  // The kinds the config's references name: once the first request is on its way.
  const later = scope.named ? api.http.written().then(scope.named) : Promise.resolve([]);
  const readsSelf = (lists: string[]) => anyListKinds.some((k) => k.needsSelf && lists.includes(k.key));
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
    scope.self || readsSelf(scope.lists)
      ? t(api.currentUser()).catch(() => null)
      : later.then((more) => (readsSelf(more) ? t(api.currentUser()).catch(() => null) : undefined)),
    scope.collections ? t(api.list(collectionKind.read.list(orgId))) : undefined,
    Promise.all(
      scope.spaceDetails.map((id) =>
        orMissing(
          t(api.request(collectionKind.spaces.read.call(id))).then((a) =>
            collectionKind.spaces.read.live(a as never),
          ),
        ),
      ),
    ).then((found) => found.filter((s) => s !== undefined)),
    Promise.all([
      readLists(api, orgId, scope, t, secrets, onList),
      later.then((more) =>
        more.length > 0 ? readLists(api, orgId, { ...scope, lists: more }, t, secrets, onList) : [],
      ),
    ]).then(([now, more]) => listsOf([...now, ...more])),
  ]);
  const result: Partial<LiveOrganization> = { ...Object.fromEntries(objects), ...lists };
  if (self !== undefined) result.self = self?.id ?? null;
  if (collections)
    result.collections = await readTreeGrants(api, collections.map(collectionKind.read.live), scope, t);
  return { org: result, spaceDetails: details.length > 0 ? details : undefined };
}

type Track = <T>(p: Promise<T>) => Promise<T>;

/** The grants of the collections the config's `access` names (all, for export): two lists each. */
async function readTreeGrants(
  api: ApiClient,
  collections: NonNullable<LiveOrganization['collections']>,
  scope: ReadScope,
  t: Track,
): Promise<NonNullable<LiveOrganization['collections']>> {
  const grants = collectionKind.grants;
  if (absentHere(grants, api.capabilities)) return collections;
  const desired = scope.desired ? (scope.desired.collections ?? []) : undefined;
  return Promise.all(
    collections.map(async (c) =>
      grants.wanted(desired, c)
        ? {
            ...c,
            access: grants.read.live(await Promise.all(grants.read.lists(c.id).map((l) => t(api.list(l))))),
          }
        : c,
    ),
  );
}

/** The list kinds in scope, each read as its module declares, where the API has it. */
async function readLists(
  api: ApiClient,
  orgId: string,
  scope: ReadScope,
  t: Track,
  secrets: Map<string, string> | undefined,
  onList?: OnList,
): Promise<ListRead[]> {
  const reads = anyListKinds
    .filter((kind) => scope.lists.includes(kind.key))
    .flatMap((kind) =>
      kind.reads
        .filter((read) =>
          read.readOnly ? readOnlyHere(kind, api.capabilities) : !absentHere(kind, api.capabilities),
        )
        .map((read) => readList(api, orgId, { kind, read, scope, t, secrets, onList })),
    );
  return Promise.all(reads);
}

type ListKind = (typeof anyListKinds)[number];
type ListReadOf = ListKind['reads'][number];

/** What `readList` reads, and with what. */
type ListReadJob = {
  kind: ListKind;
  read: ListReadOf;
  scope: ReadScope;
  t: Track;
  secrets: Map<string, string> | undefined;
  onList: OnList | undefined;
};

/** One list of one kind, its items mapped and the reads below them started as each page arrives. */
async function readList(
  api: ApiClient,
  orgId: string,
  { kind, read, scope, t, secrets, onList }: ListReadJob,
): Promise<ListRead> {
  const desired = scope.desired ? (listIn(scope.desired, kind.key) ?? []) : undefined;
  const children = read.children;
  // Read once here, not in `onItem`: the kinds' read declarations differ in shape, and `onItem`
  // (hot, one closure per list sharing its feedback) would meet a new shape after it was optimized.
  const { live, secret } = read;
  const { credentials, readsBelowShare } = kind;
  const childReads = children?.reads;
  const wanted = wantedBelow(api, children, desired);
  // Told as it is read (what is done ahead waits on it): its items as paged, each whole, the list.
  const arriving = onList && !read.readOnly ? new ArrivingList(children !== undefined) : undefined;
  if (arriving) onList!(kind.key, arriving);
  // The items as paged (also the list, without reads below).
  // Arrays of objects from the start (`emptyList`): each list's first push into a `[]` of small
  // integers deoptimized the optimized `onItem` of the lists before it (not a Smi, issue 33).
  const items: unknown[] = arriving?.paged ?? emptyList();
  // Each item whole, in order, once its reads below are done (`inPlace`).
  const below: Promise<unknown>[] = emptyList();
  // The reads below a kind diffed ahead may weigh more in the client's turns: they then
  // end before the other lists' and its diff runs while those are still read (decision 43).
  let shared =
    !onList ||
    !childReads ||
    !readsBelowShare ||
    !diffsAhead(kind, scope.desired && listIn(scope.desired, kind.key));
  let routes: string[] = [];
  const unshare = () => {
    for (const route of routes) api.http.shareRoute(route, undefined);
  };
  const onItem = (answer: unknown) => {
    if (secrets && secret) {
      const pair = secret(answer as never);
      if (pair) secrets.set(...pair);
    }
    // An id that is a credential reaches the live model as its fingerprint (decision 0031).
    const item = live(withoutCredentials(answer, credentials) as never);
    // As paged: the list itself without reads below, else only for what is done ahead.
    if (!childReads || arriving) items.push(item);
    if (!childReads) return;
    if (!shared) {
      routes = childReads.map((c) => routeBelow(c, orgId, item));
      for (const route of routes) api.http.shareRoute(route, readsBelowShare);
      shared = true;
    }
    const wants = desired ? { wants: wanted() } : undefined;
    below.push(inPlace(item, readChildren(api, orgId, item, childReads, wants, t), arriving));
  };
  // Each page's items are mapped, and the reads below them started, as the page arrives:
  // the next page and those reads go on at once (decision 39).
  await t(
    api.listPages(
      read.list(orgId),
      (answers) => {
        for (const answer of answers) onItem(answer);
        arriving?.pageRead();
      },
      children !== undefined,
    ),
  ).catch((error: unknown) => {
    unshare();
    throw error;
  });
  arriving?.allPagesRead();
  // Each item whole, in the list's order, once its reads below are done.
  const list = childReads ? await Promise.all(below).finally(unshare) : items;
  arriving?.read(list);
  return { key: kind.key, readOnly: read.readOnly, items: list };
}

/**
 * `item` whole once the reads below it (`full`) end, when `arriving` is told so too. Settles with
 * it: the list is the items whole in order (`Promise.all`), not an array filled in place, whose
 * first push met an empty array of another elements kind than the optimized code's (a deopt).
 */
function inPlace(
  item: unknown,
  full: Promise<unknown>,
  arriving: ArrivingList | undefined,
): Promise<unknown> {
  const done = full.then((whole) => {
    arriving?.itemRead(item, whole);
    return whole;
  });
  // Judged once the list's pages are read; until then a failure is not unhandled.
  done.catch(() => undefined);
  return done;
}

/**
 * What the config wants below a list's items, worked out once. Export (no config) reads
 * everything below each item. It is worked out once the first request is on its way (or when the
 * first page comes, if sooner): on a large config, a tenth of a second that no request waits for.
 */
function wantedBelow(
  api: ApiClient,
  children: ListReadOf['children'],
  desired: unknown[] | undefined,
): () => unknown {
  let wants: unknown;
  let prepared = !children || !desired;
  const wanted = () => {
    if (!prepared) {
      wants = children!.prepare(desired as never[]);
      prepared = true;
    }
    return wants;
  };
  if (!prepared)
    void api.http
      .written()
      .then(wanted)
      .catch(() => undefined);
  return wanted;
}

type ListRead = { key: string; readOnly: boolean | undefined; items: unknown[] };

type OnList = (key: string, list: ArrivingList) => void;

/** The route of a read below `item`. */
const routeBelow = (c: ChildRead<unknown, unknown>, org: string, item: unknown): string =>
  'list' in c ? c.list(org, item).route : c.call(org, item).route;

/** The lists read, in the registry's order (whichever step of the scope started them). */
function listsOf(reads: ListRead[]): Partial<LiveOrganization> {
  const order = (key: string) => anyListKinds.findIndex((k) => k.key === key);
  const result: Partial<LiveOrganization> = {};
  for (const { key, readOnly, items } of [...reads].sort((a, b) => order(a.key) - order(b.key)))
    if (readOnly) result.readOnly = { ...result.readOnly, [key]: items };
    else Object.assign(result, { [key]: items });
  return result;
}

/** The facets of the named spaces (their custom field values), where the API has them: one GET each. */
async function readSpaceFacets(api: ApiClient, ids: string[], t: Track): Promise<LiveOrganization['spaces']> {
  const facets = anySpaceFacets.filter((f) => !absentHere(f, api.capabilities));
  if (ids.length === 0 || facets.length === 0) return undefined;
  const spaces = await Promise.all(
    ids.map((id) =>
      orMissing(
        Promise.all(
          facets.map(async (f) => {
            const read = f.read(id);
            const answer =
              'lists' in read
                ? await Promise.all(read.lists.map((list) => t(api.list(list))))
                : await t(api.request(read));
            return [f.key, f.live(answer as never)] as const;
          }),
        ).then(
          (values) =>
            ({ id, ...Object.fromEntries(values) }) as NonNullable<LiveOrganization['spaces']>[number],
        ),
      ),
    ),
  );
  return spaces.filter((s) => s !== undefined);
}

/**
 * A space the config names that the API does not know is left out of the live state: plan-time
 * resolution reports it where the config names it (src/plan/references.ts), instead of the whole
 * organization failing to read.
 */
async function orMissing<T>(read: Promise<T>): Promise<T | undefined> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof ApiError && error.code === 'not-found') return undefined;
    throw error;
  }
}

/**
 * The reads below one item that the config wants (all, for export), attached in order. Not an
 * async function: it runs for every item of a page at once, so an async one was optimized before
 * any of its awaits had resumed, and deoptimized when the first did (the code after them had no
 * type feedback); the answers are attached by `attachBelow`, a function of its own.
 */
function readChildren(
  api: ApiClient,
  orgId: string,
  item: unknown,
  children: readonly ChildRead<unknown, unknown>[],
  /** What the config wants below items; undefined: everything (export). */
  scope: { wants: unknown } | undefined,
  t: Track,
): Promise<unknown> {
  try {
    // Loops, no arrays between (issue 33: this runs for every site while its reads start); which
    // reads are wanted is known before the first starts.
    const wanted: ChildRead<unknown, unknown>[] = [];
    for (const c of children) {
      if (absentHere(c, api.capabilities)) continue;
      if ((!c.applies || c.applies(item)) && (!scope || c.wanted(item, scope.wants))) wanted.push(c);
    }
    const reads: Promise<unknown>[] = [];
    for (const c of wanted)
      reads.push(t('list' in c ? api.list(c.list(orgId, item)) : api.request(c.call(orgId, item))));
    return Promise.all(reads).then((answers) => attachBelow(api, orgId, item, wanted, answers, scope, t));
  } catch (error) {
    // As an async function did: what a read's declaration throws rejects the item's promise.
    return Promise.reject(error as Error);
  }
}

/** The answers of the reads below one item, attached in order; then the reads that need them. */
function attachBelow(
  api: ApiClient,
  orgId: string,
  item: unknown,
  wanted: readonly ChildRead<unknown, unknown>[],
  answers: readonly unknown[],
  scope: { wants: unknown } | undefined,
  t: Track,
): unknown {
  let full = item;
  for (let i = 0; i < wanted.length; i += 1) full = wanted[i]!.attach(full, answers[i] as never);
  // Reads that need this round's answers (a site space's overrides need its id).
  const next: ChildRead<unknown, unknown>[] = [];
  // One by one: a spread of a long list as arguments can overflow the stack (an export's site
  // of 150,000 site spaces).
  for (const c of wanted) if (c.then) for (const read of c.then(full, scope?.wants)) next.push(read);
  return next.length === 0 ? full : readChildren(api, orgId, full, next, undefined, t);
}
