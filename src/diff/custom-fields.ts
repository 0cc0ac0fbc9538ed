import {
  address,
  type DesiredCustomField,
  type DesiredSpace,
  type LiveCustomField,
  type LiveSpace,
} from '../model/index.js';
import { pruneOrList, type DiffContext } from './context.js';
import { changedFields, same } from './draft.js';

const UPDATABLE = ['title', 'description', 'placeholder', 'options'] as const;

/** Organization custom fields, by name. A type change replaces the field (delete, then create). */
export function diffCustomFields(
  ctx: DiffContext,
  desired: DesiredCustomField[],
  live: LiveCustomField[],
): void {
  const { drafts, org } = ctx;
  const liveByName = new Map(live.map((f) => [f.name, f]));
  ctx.managedLive.count += live.length;
  for (const d of desired) {
    const addr = address.customField(org, d.name);
    const l = liveByName.get(d.name);
    const field = {
      name: d.name,
      type: d.type,
      ...(d.title !== undefined ? { title: d.title } : {}),
      ...(d.description !== undefined ? { description: d.description } : {}),
      ...(d.placeholder !== undefined ? { placeholder: d.placeholder } : {}),
      ...(d.options !== undefined ? { options: d.options } : {}),
    };
    const create = (deps: string[] = []) => {
      const key = `create:${addr}`;
      drafts.add({
        key,
        action: 'create',
        kind: 'custom-field',
        address: addr,
        before: null,
        after: { ...field },
        deps,
        op: { type: 'create-custom-field', org, field },
      });
      ctx.customFieldKeys.set(d.name, key);
    };
    if (!l) {
      create();
      continue;
    }
    if (l.type !== d.type) {
      const del = drafts.add({
        key: `delete:${addr}`,
        action: 'delete',
        kind: 'custom-field',
        address: addr,
        before: { type: l.type },
        after: null,
        note: `replaced: the type changes from ${l.type} to ${d.type}, which the API cannot update; values of this field are lost`,
        op: { type: 'delete-custom-field', org, name: d.name },
      });
      create([del.key]);
      continue;
    }
    const diff = changedFields(d, l, UPDATABLE);
    if (diff) {
      const key = `update:${addr}`;
      drafts.add({
        key,
        action: 'update',
        kind: 'custom-field',
        address: addr,
        ...diff,
        op: { type: 'update-custom-field', org, name: d.name, patch: diff.after },
      });
      ctx.customFieldKeys.set(d.name, key);
    }
  }
  const wanted = new Set(desired.map((d) => d.name));
  for (const l of live) {
    if (wanted.has(l.name)) continue;
    const addr = address.customField(org, l.name);
    pruneOrList(ctx, {
      key: `delete:${addr}`,
      kind: 'custom-field',
      address: addr,
      before: { type: l.type },
      op: { type: 'delete-custom-field', org, name: l.name },
    });
  }
}

/** Custom field values of named spaces: one change per space, carrying only the values that differ. */
export function diffSpaces(ctx: DiffContext, desired: DesiredSpace[], live: LiveSpace[]): void {
  const liveById = new Map(live.map((s) => [s.id, s]));
  for (const d of desired) {
    const current = liveById.get(d.id)?.customFields ?? {};
    const before: Record<string, unknown> = {};
    const after: Record<string, unknown> = {};
    const deps: string[] = [];
    for (const [name, value] of Object.entries(d.customFields ?? {})) {
      const have = current[name] ?? null;
      const fieldChange = ctx.customFieldKeys.get(name);
      // A replaced field loses its values: set them again even when they looked equal.
      const replaced =
        fieldChange !== undefined && ctx.drafts.get(fieldChange)?.action === 'create' && have !== null;
      if (same(value, have) && !replaced) continue;
      before[name] = replaced ? null : have;
      after[name] = value;
      if (fieldChange) deps.push(fieldChange);
    }
    if (Object.keys(after).length === 0) continue;
    const addr = address.spaceCustomFields(ctx.org, d.id);
    ctx.drafts.add({
      key: `update:${addr}`,
      action: 'update',
      kind: 'space-custom-fields',
      address: addr,
      before,
      after,
      deps,
      op: { type: 'set-space-custom-fields', spaceId: d.id, values: after as Record<string, never> },
    });
  }
}
