import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/client.js';
import { renderResultTable } from '../../src/apply/result.js';
import { commentBody } from '../../src/cli/comment.js';
import { loadConfigFromBuffers } from '../../src/config/load.js';
import type { Holds } from '../../src/coord/types.js';
import { RunJournal } from '../../src/daemon/runs/journal.js';
import { RunStore } from '../../src/daemon/runs/run-store.js';
import { appliedByKind, outcomeReport } from '../../src/daemon/sync-report.js';
import { renderStatusPage } from '../../src/daemon/ui/status-page.js';
import type { Emulator } from '../../src/emulator/server.js';
import { createLogger } from '../../src/log/logger.js';
import type { DesiredState } from '../../src/reconcile/index.js';
import { makePlan } from '../../src/pipeline/plan-run.js';
import { runSync } from '../../src/pipeline/sync.js';
import { renderJson, renderMarkdown, renderText, type PlanSummary } from '../../src/plan/index.js';
import { baseSeed, client, withEmulator } from '../helpers/emulator.js';

/**
 * One plan, counted everywhere (issue 27 finding 3). Before, one plan read "3 to update" in text,
 * `"update": 11` in JSON and "5 updated" after apply; the status page showed "Last sync: 1 to create,
 * 4 to update" next to "pending: 1 to create, 3 to update". Every place now counts through
 * `resourceSummary`, and this test reads the numbers back from each rendering.
 */
const YAML = `organization: org_t
policy: { prune: true }
teams:
  - title: Writers
sites:
  - title: Docs
    basename: docs
    shareLinks: [{ name: preview, active: false }]
    sections:
      - { path: guides, title: Guides, spaces: [{ space: space_1, path: v1 }, { space: space_2, path: v2 }] }
      - { path: api, title: API, spaces: [{ space: space_3, path: v3 }] }
`;

const seed = () => {
  const s = baseSeed(4) as { organizations: Record<string, unknown>[] };
  s.organizations[0]!['teams'] = [{ title: 'Old team' }];
  return s;
};

const hold = async (orgs: string[]): Promise<Holds> => ({
  orgs,
  gateFor: () => undefined,
  release: async () => {},
});

const line = (s: PlanSummary) =>
  `${s.create} to create, ${s.update} to update, ${s.delete} to delete, ${s.move} to move`;

function fromLine(text: string, re: RegExp): PlanSummary {
  const m = re.exec(text);
  if (!m) throw new Error(`no summary in: ${text.slice(0, 400)}`);
  return { create: Number(m[1]), update: Number(m[2]), delete: Number(m[3]), move: Number(m[4]) };
}
const SUMMARY = /(\d+) to create, (\d+) to update, (\d+) to delete, (\d+) to move/;

describe('one summary function', () => {
  let emu: Emulator;
  let api: ApiClient;
  beforeEach(async () => {
    emu = await withEmulator({ seed: seed() });
    api = client(emu, { concurrency: 2, timeoutMs: 5000 });
  });
  afterEach(async () => {
    await api.close();
    await emu.close();
  });

  it('text, JSON, markdown, the PR comment, apply, metrics, the status page and the run record agree', async () => {
    const loaded = loadConfigFromBuffers([{ file: 'org.yaml', bytes: Buffer.from(YAML) }]);
    const desired = loaded.desired as DesiredState;
    const { plan, live } = await makePlan(api, desired);
    // The plan has creations with follow-up updates (several calls, one resource each) and a deletion.
    expect(plan.changes.filter((c) => c.action === 'update').length).toBeGreaterThan(0);
    const want = plan.summary;
    expect(want).toEqual({ create: 6, update: 0, delete: 1, move: 0 });

    expect(
      fromLine(renderText(plan), /Plan: (\d+) to create, (\d+) to update, (\d+) to delete, (\d+) to move/),
    ).toEqual(want);
    expect(JSON.parse(renderJson(plan)).summary).toEqual(want);
    const md = renderMarkdown(plan, { live });
    expect(
      fromLine(md, /\*\*Plan:\*\* (\d+) to create, (\d+) to update, (\d+) to delete, (\d+) to move/),
    ).toEqual(want);
    expect(fromLine(md, /\| `org_t` \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|/)).toEqual(want);
    expect(fromLine(commentBody(plan, { live }), SUMMARY)).toEqual(want);

    // Apply: the result line counts resources the same way.
    const outcome = await runSync({ api, desired, apply: true, allowDeletes: 0, hold });
    expect(outcome.result).toBe('applied');
    if (outcome.result === 'not-owned' || !outcome.applied) throw new Error('not applied');
    const applied = renderResultTable(outcome.applied);
    const n = want.create + want.update + want.delete + want.move;
    expect(applied).toContain(
      `Apply: ${n} resources (${want.create} created, ${want.delete} deleted) in ${plan.changes.length} calls`,
    );
    // Metrics: the same counts by kind, summed.
    const byKind = [...appliedByKind(outcome.applied.results).values()];
    const metric = (a: keyof PlanSummary) => byKind.reduce((sum, s) => sum + s[a], 0);
    expect({
      create: metric('create'),
      update: metric('update'),
      delete: metric('delete'),
      move: metric('move'),
    }).toEqual(want);

    // The daemon's report, its run record and its status page ("Last sync" next to "pending").
    const inc = () => {};
    const report = outcomeReport(outcome, {
      opts: {},
      metrics: { changesApplied: { inc } },
      coordinator: { status: () => ({ replica: 'r' }) },
    } as never);
    expect(report.summary).toEqual(want);
    const journal = new RunJournal(
      await RunStore.open(join(mkdtempSync(join(tmpdir(), 'docsync-summary-')), 'runs.jsonl')),
      createLogger('silent'),
    );
    journal.planned(plan, live);
    const startedAt = new Date().toISOString();
    const record = await journal.synced({
      runId: 'r1',
      trigger: 'startup',
      startedAt,
      revision: 'abc',
      ...report,
    });
    expect(record!.summary).toEqual(want);
    const html = renderStatusPage({
      status: {
        phase: 'idle',
        mode: 'plan',
        api: { flavor: 'seed' },
        source: { type: 'folder', path: 'config' },
        configValid: true,
        lastSync: { runId: 'r1', trigger: 'startup', startedAt, finishedAt: startedAt, ...report },
        lastDrift: null,
      } as never,
      ready: true,
      pending: { at: startedAt, revision: 'abc', plan, live, applied: new Set() },
      runs: [record!],
      now: new Date(),
      refreshSeconds: 10,
    });
    const shown = [...html.matchAll(new RegExp(SUMMARY, 'g'))].map((m) => m[0]);
    expect(shown.length).toBeGreaterThanOrEqual(2);
    expect(new Set(shown)).toEqual(new Set([line(want)]));
  });
});
