import type { ApiClient } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import { errorCode } from '../errors.js';
import type { DesiredOrganization, DesiredState } from '../reconcile/index.js';
import {
  absentHere,
  anyListKinds,
  anyObjectKinds,
  anySpaceFacets,
  collectionKind,
} from '../kinds/registry.js';
import type { LiveOrganization, LiveState } from '../reconcile/index.js';
import type { ArrivingList } from '../model/arriving.js';
import { listsOf, readLists } from './read-list.js';
import { scopeInSteps, type ReadScope } from './scope.js';
import { Tracker, type ReadProgress, type Track } from './tracker.js';

/**
 * A list kind's live list of one organization begins to be read: `list` tells, as it is read, its
 * items as paged, each item once the reads below it are done, and the array the live state holds
 * for it: what is diffed ahead starts from it (decision 43, sixth and eighth passes).
 */
export type OnListRead = (org: string, key: string, list: ArrivingList) => void;

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
