import { GRANTS_KEY, type DesiredGrant, type LiveGrant } from '../model/grants.js';

/** A space, collection or site entry, desired or live, as far as its grants go (src/model/grants.ts). */
export type WithGrants<G> = { readonly [GRANTS_KEY]?: readonly G[] | undefined };

/**
 * The `access` list of a desired space, collection or site, or undefined when the entry does not
 * manage its grants.
 */
export function desiredGrantsOf(entry: WithGrants<DesiredGrant>): readonly DesiredGrant[] | undefined {
  return entry[GRANTS_KEY];
}

/** The live entry's grants (teams and members by id), or undefined when they were not read. */
export function liveGrantsOf(entry: WithGrants<LiveGrant>): readonly LiveGrant[] | undefined {
  return entry[GRANTS_KEY];
}
