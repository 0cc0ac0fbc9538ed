import type { ApiClient } from '../api/client.js';
import { opDef } from '../kinds/registry.js';
import type { ApiCall, OpOutput, Resolver } from '../kinds/types.js';
import type { ChangeOp } from '../reconcile/index.js';
import { FINGERPRINT, fingerprint } from '../secrets/credentials.js';
import { resolvePatch, resolvePosition, resolveRef, UnresolvedRefError, type Produced } from './resolve.js';

export type { OpOutput } from '../kinds/types.js';

/** How references of a plan are resolved once the changes they name have run. */
export function resolverOf(produced: Produced): Resolver {
  return {
    ref: (ref) => resolveRef(ref, produced),
    patch: (patch) => resolvePatch(patch, produced),
    position: (position, type, key) => resolvePosition(position, type, key, produced),
  };
}

/** A fingerprint of the plan that names no live object any more. */
class FingerprintGone extends UnresolvedRefError {}

/**
 * A resolver that also turns the fingerprints of live objects whose ids are credentials into their
 * ids, from a fresh read of the list the operation declares (decision 0031): a fingerprint that
 * names nothing there any more is an error, never a call to a guessed id (a delete of it is done).
 */
async function locating(api: ApiClient, op: ChangeOp, produced: Produced): Promise<Resolver> {
  const base = resolverOf(produced);
  const locate = opDef(op).locate;
  if (!locate) return base;
  const items = await api.list(locate(op as never));
  const ids = new Map<string, string>();
  for (const item of items as { id?: unknown }[])
    if (typeof item.id === 'string') ids.set(fingerprint(item.id), item.id);
  return {
    ...base,
    ref: (ref) => {
      const value = base.ref(ref);
      if (!FINGERPRINT.test(value)) return value;
      const id = ids.get(value);
      if (id === undefined)
        throw new FingerprintGone(
          `${op.type}: no live object has the fingerprint ${value} any more (changed since the plan was made); plan again`,
        );
      return id;
    },
  };
}

/** Make the single API call of one change, as its kind declares it. */
export async function executeOp(api: ApiClient, op: ChangeOp, produced: Produced): Promise<OpOutput> {
  const def = opDef(op);
  let call: ApiCall;
  try {
    call = def.call(op, await locating(api, op, produced), api.capabilities);
  } catch (error) {
    // Already gone: a delete is done, as the API itself answers a delete of nothing.
    if (error instanceof FingerprintGone && op.type.startsWith('delete-')) return {};
    throw error;
  }
  const answer = await api.request(call);
  return def.output ? def.output(answer as never, op) : {};
}
