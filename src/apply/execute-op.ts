import type { ApiClient } from '../api/client.js';
import { opDef } from '../kinds/registry.js';
import type { OpOutput, Resolver } from '../kinds/types.js';
import type { ChangeOp } from '../reconcile/index.js';
import { resolvePatch, resolvePosition, resolveRef, type Produced } from './resolve.js';

export type { OpOutput } from '../kinds/types.js';

/** How references of a plan are resolved once the changes they name have run. */
export function resolverOf(produced: Produced): Resolver {
  return {
    ref: (ref) => resolveRef(ref, produced),
    patch: (patch) => resolvePatch(patch, produced),
    position: (position, type, key) => resolvePosition(position, type, key, produced),
  };
}

/** Make the single API call of one change, as its kind declares it. */
export async function executeOp(api: ApiClient, op: ChangeOp, produced: Produced): Promise<OpOutput> {
  const def = opDef(op);
  const call = def.call(op, resolverOf(produced), api.capabilities);
  const answer = await api.request(call);
  return def.output ? def.output(answer as never, op) : {};
}
