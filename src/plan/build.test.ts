import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { OrgDiff } from '../reconcile/diff.js';
import { relationKinds } from '../kinds/registry.js';
import { SET_AFTER_CREATION } from '../model/index.js';
import type { Change } from '../reconcile/index.js';
import { buildPlan } from './build.js';
import { countsOf } from './tally.js';
import type { Counts } from './controls.js';
import { resourceSummary } from './format-value.js';

type D = OrgDiff['drafts'][number];

/** A seeded generator (the same drafts on every run). */
function random(seed: number): () => number {
  let x = seed;
  return () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
}

/** `n` drafts, each waiting for a few others (earlier ones, and later ones when `forward`). */
function drafts(n: number, rnd: () => number, forward: boolean): D[] {
  const out: D[] = [];
  for (let i = 0; i < n; i += 1) {
    const deps: string[] = [];
    for (let k = Math.floor(rnd() * 4); k > 0; k -= 1) {
      const j = forward && rnd() < 0.08 ? i + 1 + Math.floor(rnd() * 5) : Math.floor(rnd() * i);
      const key = j < n ? `update:org_t/x/${j}` : 'update:org_t/elsewhere';
      if (j !== i && !deps.includes(key)) deps.push(key);
    }
    const other = Math.floor(rnd() * n);
    out.push({
      key: `update:org_t/x/${i}`,
      action: 'update',
      kind: 'team',
      address: `org_t/x/${i}`,
      before: { title: `t${i}` },
      after: { title: `u${i}` },
      deps,
      ...(rnd() < 0.2 ? { note: 'a note' } : {}),
      op: {
        type: 'update-team',
        org: 'org_t',
        team: { change: `update:org_t/x/${other}` },
        title: `u${i}`,
      },
    } as D);
  }
  return out;
}

const orgDiff = (list: D[]): OrgDiff => ({
  organization: 'org_t',
  drafts: list,
  unmanaged: [],
  problems: [],
  policy: { prune: true, maxDeletes: 1e9 },
  managedLiveCount: 0,
  warnings: [],
});

/** The plan's order as first written: Kahn's algorithm, the smallest emission index first. */
function reference(list: D[]): { ids: string[]; dependsOn: string[][]; refs: string[]; checksum: string } {
  const index = new Map(list.map((d, i) => [d.key, i]));
  const indegree = list.map(() => 0);
  const dependents: number[][] = list.map(() => []);
  list.forEach((d, i) =>
    d.deps.forEach((k) => {
      const j = index.get(k);
      if (j === undefined) return;
      indegree[i]! += 1;
      dependents[j]!.push(i);
    }),
  );
  const ready = indegree.flatMap((n, i) => (n === 0 ? [i] : []));
  const order: number[] = [];
  while (ready.length > 0) {
    ready.sort((a, b) => a - b);
    const i = ready.shift()!;
    order.push(i);
    for (const j of dependents[i]!) if ((indegree[j]! -= 1) === 0) ready.push(j);
  }
  const id = new Map(order.map((i, n) => [list[i]!.key, `c${n + 1}`]));
  const position = new Map(order.map((i, n) => [list[i]!.key, n]));
  const hash = createHash('sha256');
  const ids: string[] = [];
  const dependsOn: string[][] = [];
  const refs: string[] = [];
  for (const [n, i] of order.entries()) {
    const d = list[i]!;
    const deps = d.deps
      .filter((k) => position.has(k))
      .map((k) => position.get(k)!)
      .sort((a, b) => a - b)
      .map((p) => `c${p + 1}`);
    const team = (d.op as { team: { change: string } }).team.change;
    const op = { ...d.op, team: { change: id.get(team) ?? team } };
    ids.push(d.address);
    dependsOn.push(deps);
    refs.push(op.team.change);
    hash
      .update(JSON.stringify([`c${n + 1}`, d.action, d.kind, d.address, d.before, d.after, deps, op]))
      .update('\n');
  }
  return { ids, dependsOn, refs, checksum: hash.digest('hex') };
}

describe('buildPlan', () => {
  it.each([
    ['waiting only for earlier drafts', false],
    ['waiting for later drafts too', true],
  ])(
    'orders, numbers, renames and hashes as Kahn with the smallest emission index first (%s)',
    (_, forward) => {
      let ordered = 0;
      for (let seed = 1; seed <= 20; seed += 1) {
        const list = drafts(5 + seed * 7, random(seed), forward);
        // A random graph with later drafts may have a cycle: then no order at all.
        const want = reference(list);
        const plan = buildPlan([orgDiff(list)]);
        if (want.ids.length < list.length) {
          expect(plan.changes).toEqual([]);
          expect(plan.errors.map((e) => e.code)).toEqual(['dependency-cycle']);
          continue;
        }
        expect(plan.changes.map((c) => c.address)).toEqual(want.ids);
        expect(plan.changes.map((c) => c.dependsOn)).toEqual(want.dependsOn);
        expect(plan.changes.map((c) => (c.op as { team: { change: string } }).team.change)).toEqual(
          want.refs,
        );
        expect(plan.checksum).toBe(want.checksum);
        ordered += 1;
      }
      // Both sides of the test ran: plans ordered, and (with later drafts) some cycles.
      expect(ordered).toBeGreaterThan(forward ? 2 : 19);
      if (forward) expect(ordered).toBeLessThan(20);
    },
  );

  it('keeps a note before the op in the change', () => {
    const list = drafts(3, random(7), false).map((d) => ({ ...d, note: 'n' }));
    const plan = buildPlan([orgDiff(list)]);
    expect(Object.keys(plan.changes[0]!)).toEqual([
      'id',
      'action',
      'kind',
      'address',
      'before',
      'after',
      'dependsOn',
      'note',
      'op',
    ]);
  });
});

describe('countsOf', () => {
  it('counts deletions and updates per kind as the summary counts them (a creation follow-up is none)', () => {
    const rnd = random(3);
    const actions = ['create', 'update', 'delete', 'move'] as const;
    const kinds = ['site-section', 'site-space', 'team', 'section-group-membership'] as const;
    for (let run = 0; run < 50; run += 1) {
      const changes = Array.from({ length: 40 }, (_, i) => ({
        id: `c${i + 1}`,
        action: actions[Math.floor(rnd() * 4)]!,
        kind: kinds[Math.floor(rnd() * 4)]!,
        address: `org_t/x/${Math.floor(rnd() * 8)}`,
        before: null,
        after: null,
        dependsOn: [],
        ...(rnd() < 0.2 ? { note: SET_AFTER_CREATION } : {}),
        op: { type: 'delete-team', org: 'org_t', team: { id: 't' } },
      })) as Change[];
      // As first written: each kind's list, its deletions (none for a relation), its summary.
      const want: Counts = { deletes: 0, updates: 0, deletesByKind: {}, updatesByKind: {} };
      for (const kind of [...new Set(changes.map((c) => c.kind))]) {
        const list = changes.filter((c) => c.kind === kind);
        const deletes = relationKinds.has(kind) ? 0 : list.filter((c) => c.action === 'delete').length;
        const updates = resourceSummary(list).update;
        if (deletes > 0) want.deletesByKind[kind] = deletes;
        if (updates > 0) want.updatesByKind[kind] = updates;
        want.deletes += deletes;
        want.updates += updates;
      }
      const got = countsOf(changes);
      expect(got).toEqual(want);
      expect(Object.keys(got.deletesByKind)).toEqual(Object.keys(want.deletesByKind));
      expect(Object.keys(got.updatesByKind)).toEqual(Object.keys(want.updatesByKind));
    }
  });
});
