import type { ApiClient } from '../api/client.js';
import { opDef } from '../kinds/registry.js';
import type { ChangeOp } from '../reconcile/index.js';
import { resolverOf, type OpOutput } from './execute-op.js';
import type { Produced } from './resolve.js';

/**
 * After a creation failed ambiguously (the request may have reached the server), re-read the
 * parent's list and find the object by its identity, as its kind declares it. Returns its ids,
 * or null when it does not exist (the creation can be sent again safely). Only creations have
 * an adoption rule.
 */
export async function findCreated(
  api: ApiClient,
  op: ChangeOp,
  produced: Produced,
): Promise<OpOutput | null> {
  const adopt = opDef(op).adopt;
  if (!adopt) return null;
  const r = resolverOf(produced);
  const items =
    'list' in adopt ? await api.list(adopt.list(op, r)) : adopt.items(await api.request(adopt.read(op, r)));
  const found = items.find((item) => adopt.find(item as never, op, r));
  return found === undefined ? null : adopt.output(found as never, op);
}

export function isCreation(op: ChangeOp): boolean {
  return op.type.startsWith('create-');
}
