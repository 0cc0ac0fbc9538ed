import { GRANTS_KEY, type DesiredGrant, type LiveGrant } from '../model/grants.js';

/**
 * The `access` list of a desired or live space, collection or site (src/model/grants.ts), or
 * undefined when the entry does not manage (desired) or was not read with (live) its grants.
 *
 * The one narrow cast of the access computation: the grant kinds add `access` to the entries'
 * types; once they do, this reads the field directly and the cast can go.
 */
export function desiredGrantsOf(entry: object): readonly DesiredGrant[] | undefined {
  return (entry as { [GRANTS_KEY]?: DesiredGrant[] })[GRANTS_KEY];
}

/** See `desiredGrantsOf`: the live entry's grants, teams and members by id. */
export function liveGrantsOf(entry: object): readonly LiveGrant[] | undefined {
  return (entry as { [GRANTS_KEY]?: LiveGrant[] })[GRANTS_KEY];
}
