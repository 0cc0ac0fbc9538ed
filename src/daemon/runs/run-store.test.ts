import { appendFileSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunRecord } from './run-record.js';
import { RunStore } from './run-store.js';

const file = () => join(mkdtempSync(join(tmpdir(), 'docsync-runs-')), 'state', 'runs.jsonl');

function run(id: string, extra: Partial<RunRecord> = {}): Omit<RunRecord, 'seq'> {
  return {
    id,
    type: 'sync',
    trigger: 'poll',
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:00:01.000Z',
    durationMs: 1000,
    result: 'applied',
    counts: { planned: 1, applied: 1, failed: 0, skipped: 0 },
    changes: [{ id: 'c1', action: 'create', kind: 'team', address: 'org/teams/A', fields: [] }],
    errors: [],
    ...extra,
  };
}

const lineCount = (path: string) => readFileSync(path, 'utf8').split('\n').filter(Boolean).length;

describe('RunStore', () => {
  it('survives a restart: runs, their order and the next sequence number', async () => {
    const path = file();
    const first = await RunStore.open(path);
    await first.append(run('a'));
    await first.append(run('b', { result: 'failed', errors: ['boom'] }));
    const second = await RunStore.open(path);
    expect(second.list(10).runs.map((r) => [r.id, r.seq])).toEqual([
      ['b', 2],
      ['a', 1],
    ]);
    expect(second.get('b')).toMatchObject({ result: 'failed', errors: ['boom'] });
    expect((await second.append(run('c'))).seq).toBe(3);
  });

  it('pages newest first with a cursor until the end', async () => {
    const store = await RunStore.open(file());
    for (let i = 1; i <= 7; i += 1) await store.append(run(`r${i}`));
    const p1 = store.list(3);
    expect(p1.runs.map((r) => r.id)).toEqual(['r7', 'r6', 'r5']);
    const p2 = store.list(3, p1.nextCursor!);
    expect(p2.runs.map((r) => r.id)).toEqual(['r4', 'r3', 'r2']);
    const p3 = store.list(3, p2.nextCursor!);
    expect(p3).toEqual({ runs: [expect.objectContaining({ id: 'r1' })], nextCursor: null });
    expect(store.list(7).nextCursor).toBeNull();
  });

  it('keeps the newest runs and compacts the file by count', async () => {
    const path = file();
    const store = await RunStore.open(path, { maxRuns: 20 });
    for (let i = 1; i <= 100; i += 1) await store.append(run(`r${i}`));
    expect(store.list(1000).runs).toHaveLength(20);
    expect(store.list(1).runs[0]!.id).toBe('r100');
    expect(store.get('r80')).toBeUndefined();
    expect(lineCount(path)).toBeLessThanOrEqual(30);
    const reopened = await RunStore.open(path, { maxRuns: 20 });
    expect(reopened.list(1000).runs.map((r) => r.id)).toEqual(
      Array.from({ length: 20 }, (_, i) => `r${100 - i}`),
    );
  });

  it('compacts the file by size', async () => {
    const path = file();
    const store = await RunStore.open(path, { maxRuns: 500, maxBytes: 20_000 });
    const big = 'x'.repeat(1000);
    for (let i = 1; i <= 100; i += 1) await store.append(run(`r${i}`, { errors: [big] }));
    expect(statSync(path).size).toBeLessThanOrEqual(20_000);
    const reopened = await RunStore.open(path, { maxBytes: 20_000 });
    const kept = reopened.list(1000).runs;
    expect(kept[0]!.id).toBe('r100');
    expect(kept.length).toBeGreaterThan(5);
    expect(kept.length).toBeLessThan(100);
  });

  it('skips a torn or foreign line and goes on', async () => {
    const path = file();
    const store = await RunStore.open(path);
    await store.append(run('a'));
    appendFileSync(path, '{"seq": 2, "id": "tor');
    const reopened = await RunStore.open(path);
    expect(reopened.list(10).runs.map((r) => r.id)).toEqual(['a']);
    writeFileSync(path, 'not json\n');
    expect((await RunStore.open(path)).list(10).runs).toEqual([]);
  });

  it('serializes concurrent appends', async () => {
    const path = file();
    const store = await RunStore.open(path);
    await Promise.all(Array.from({ length: 30 }, (_, i) => store.append(run(`r${i}`))));
    expect(lineCount(path)).toBe(30);
    const seqs = (await RunStore.open(path)).list(100).runs.map((r) => r.seq);
    expect(new Set(seqs).size).toBe(30);
  });
});
