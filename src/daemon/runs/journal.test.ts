import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger, registerSecret } from '../../log/logger.js';
import { buildPlan } from '../../plan/build.js';
import { RunJournal } from './journal.js';
import { RunStore } from './run-store.js';

const open = async () =>
  new RunJournal(
    await RunStore.open(join(mkdtempSync(join(tmpdir(), 'docsync-journal-')), 'runs.jsonl')),
    createLogger('silent'),
  );

describe('RunJournal', () => {
  it('records a sync with its plan, apply results and redacted errors; a sync from drift is a self-heal', async () => {
    const secret = 'sekret-token-value-42';
    registerSecret(secret);
    const journal = await open();
    const plan = buildPlan([
      {
        organization: 'org_a',
        drafts: [
          {
            key: 'k1',
            action: 'create',
            kind: 'team',
            address: 'org_a/teams/Writers',
            before: null,
            after: { title: 'Writers' },
            deps: [],
            op: { type: 'create-team', org: 'org_a', title: 'Writers' },
          },
        ],
        problems: [],
        unmanaged: [],
        policy: { prune: false, maxDeletes: 10 },
        managedLiveCount: 0,
      } as never,
    ]);
    journal.planned(plan, { organizations: [] }, 'abc123');
    journal.applied({
      results: [
        {
          id: 'c1',
          kind: 'team',
          action: 'create',
          address: 'org_a/teams/Writers',
          status: 'failed',
          durationMs: 3,
          message: `refused with Bearer ${secret}`,
        },
      ],
      applied: 0,
      failed: 1,
      skipped: 0,
      ok: false,
      durationMs: 3,
    });
    expect(journal.pending?.applied.size).toBe(0);
    const record = await journal.synced({
      runId: 'r1',
      trigger: 'drift',
      startedAt: new Date(Date.now() - 1500).toISOString(),
      result: 'failed',
      revision: 'abc123',
      message: `it failed: ${secret}`,
    });
    expect(record).toMatchObject({
      id: 'r1',
      type: 'sync',
      trigger: 'self-heal',
      result: 'failed',
      counts: { planned: 1, applied: 0, failed: 1, skipped: 0 },
      changes: [{ id: 'c1', action: 'create', kind: 'team', status: 'failed', fields: ['title: "Writers"'] }],
    });
    expect(record!.durationMs).toBeGreaterThanOrEqual(1000);
    expect(JSON.stringify(record)).not.toContain(secret);
    expect(record!.errors[0]).toContain('[redacted]');

    // The next record of the same run gets its own id; without a plan it has no changes.
    const drift = await journal.drifted('r1', { at: new Date().toISOString(), drifted: false });
    expect(drift).toMatchObject({ id: 'r1-2', type: 'drift', result: 'in-sync', changes: [] });
  });
});
