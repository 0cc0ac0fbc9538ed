import type { ApiClient } from '../api/client.js';
import { absentHere, readOnlyHere, anyListKinds, listIn, diffsAhead } from '../kinds/registry.js';
import type { ChildRead } from '../kinds/types.js';
import type { LiveOrganization } from '../reconcile/index.js';
import { withoutCredentials } from '../secrets/credentials.js';
import { ArrivingList } from '../model/arriving.js';
import { emptyList } from '../model/holey.js';
import { readChildren } from './read-children.js';
import type { ReadScope } from './scope.js';
import type { Track } from './tracker.js';

/** The list kinds in scope, each read as its module declares, where the API has it. */
export async function readLists(
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
  let scopeBelow: { wants: unknown } | undefined;
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
    // One scope for every item of the list (what it wants does not change once worked out).
    const wants = desired ? (scopeBelow ??= scopeOf(wanted())) : undefined;
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
  done.catch(ignore);
  return done;
}

/**
 * The scope of what the config wants below a list's items, its `wants` stored after the object is
 * made: V8 gives a field first stored with an object that object's class as its type, and each
 * list's `wants` is of another class; the second list's scope changed the type of every scope's
 * field mid-plan, which threw away the compile jobs under way that had inlined `readChildren`
 * (which reads it: V8's field type dependency, decision 42's seventeenth pass (req7)).
 */
function scopeOf(wants: unknown): { wants: unknown } {
  const scope: { wants: unknown } = { wants: undefined };
  scope.wants = wants;
  return scope;
}

/** A failure handled elsewhere (one function, not one made per item). */
const ignore = (): undefined => undefined;

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

export type OnList = (key: string, list: ArrivingList) => void;

/** The route of a read below `item`. */
const routeBelow = (c: ChildRead<unknown, unknown>, org: string, item: unknown): string =>
  'list' in c ? c.list(org, item).route : c.call(org, item).route;

/** The lists read, in the registry's order (whichever step of the scope started them). */
export function listsOf(reads: ListRead[]): Partial<LiveOrganization> {
  const order = (key: string) => anyListKinds.findIndex((k) => k.key === key);
  const result: Partial<LiveOrganization> = {};
  for (const { key, readOnly, items } of [...reads].sort((a, b) => order(a.key) - order(b.key)))
    if (readOnly) result.readOnly = { ...result.readOnly, [key]: items };
    else Object.assign(result, { [key]: items });
  return result;
}
