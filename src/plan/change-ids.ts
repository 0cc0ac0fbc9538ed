import type { Ref } from '../model/index.js';
import type { Change, ChangeOp } from '../reconcile/index.js';
import type { Draft } from './change-order.js';

/** A change's id by its draft's key (undefined: not in the plan). */
type IdOf = (key: string) => string | undefined;

function renameRef(ref: Ref, ids: IdOf): Ref {
  if ('id' in ref) return ref;
  return { ...ref, change: ids(ref.change) ?? ref.change };
}

/** Whether an object is a reference to a draft: `{ change }` or `{ change, key }`, nothing else. */
function isChangeRef(obj: Record<string, unknown>): boolean {
  if (typeof obj['change'] !== 'string') return false;
  for (const k in obj) if (k !== 'change' && k !== 'key') return false;
  return true;
}

/**
 * Rewrite every `{ change: key }` reference of a value to the final change ids. Objects without a
 * reference inside are returned as they are (no copy), which keeps large plans cheap. One function
 * for every op, not a closure per op, and no call for a field that holds no object (issue 33).
 */
function renameRefs(value: unknown, ids: IdOf): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i += 1) {
      const item: unknown = value[i];
      if (item === null || typeof item !== 'object') continue;
      const next = renameRefs(item, ids);
      if (next !== item) (copy ??= [...value])[i] = next;
    }
    return copy ?? value;
  }
  const obj = value as Record<string, unknown>;
  if (isChangeRef(obj)) return renameRef(obj as Ref, ids);
  let copy: Record<string, unknown> | undefined;
  for (const key in obj) {
    const field = obj[key];
    if (field === null || typeof field !== 'object') continue;
    const next = renameRefs(field, ids);
    if (next !== field) (copy ??= { ...obj })[key] = next;
  }
  return copy ?? obj;
}

const renameOp = (op: ChangeOp, ids: IdOf): ChangeOp => renameRefs(op, ids) as ChangeOp;

/** The plan's changes, in `order`. */
export function changesOf(
  drafts: readonly Draft[],
  order: readonly number[],
  index: Map<string, number>,
  position: number[],
  idOf: (key: string) => string | undefined,
): Change[] {
  const count = order.length;
  const changes: Change[] = new Array<Change>(count);
  for (let n = 0; n < count; n += 1) {
    const d = drafts[order[n]!]!;
    const change: Change = {
      id: `c${n + 1}`,
      action: d.action,
      kind: d.kind,
      address: d.address,
      before: d.before,
      after: d.after,
      dependsOn: dependsOn(d.deps, index, position),
      op: renameOp(d.op, idOf),
    };
    // The note goes before the op, where the plan's JSON has always shown it.
    changes[n] = d.note ? withNote(change, d.note) : change;
  }
  return changes;
}

/** The ids of the changes a draft waits for, in plan order (a dependency outside the plan is dropped). */
function dependsOn(deps: readonly string[], index: Map<string, number>, position: number[]): string[] {
  if (deps.length === 0) return [];
  const at: number[] = [];
  for (const k of deps) {
    const i = index.get(k);
    if (i !== undefined) at.push(position[i]!);
  }
  if (at.length > 1) at.sort((a, b) => a - b);
  const out = new Array<string>(at.length);
  for (let i = 0; i < at.length; i += 1) out[i] = `c${at[i]! + 1}`;
  return out;
}

/** A change with its note, in the key order of the plan's JSON (the note before the op). */
function withNote(c: Change, note: string): Change {
  return {
    id: c.id,
    action: c.action,
    kind: c.kind,
    address: c.address,
    before: c.before,
    after: c.after,
    dependsOn: c.dependsOn,
    note,
    op: c.op,
  };
}
