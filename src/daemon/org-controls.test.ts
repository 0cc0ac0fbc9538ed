import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DesiredOrganization } from '../reconcile/index.js';
import { OrgControls } from './org-controls.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const file = () => {
  const dir = mkdtempSync(join(tmpdir(), 'docsync-controls-'));
  dirs.push(dir);
  return join(dir, 'sub', 'suspended.json');
};

const NOW = Date.parse('2026-11-25T23:00:00Z');
const org = (extra: Partial<DesiredOrganization> = {}): DesiredOrganization =>
  ({ id: 'org_a', policy: { prune: false, maxDeletes: 10 }, ...extra }) as DesiredOrganization;

describe('OrgControls', () => {
  it('keeps API suspensions in a file, read back by the next daemon', async () => {
    const f = file();
    const first = await OrgControls.open(f, () => NOW);
    await first.suspend('org_a');
    expect(JSON.parse(readFileSync(f, 'utf8'))).toEqual({
      formatVersion: 1,
      suspended: { org_a: { since: '2026-11-25T23:00:00.000Z' } },
    });
    const second = await OrgControls.open(f, () => NOW);
    expect(second.suspendedThroughApi()).toEqual(['org_a']);
    expect(second.applyBlocked('org_a', org(), true)).toMatch(
      /suspended through the API since 2026-11-25T23:00/,
    );
    await second.resume('org_a');
    expect((await OrgControls.open(f)).suspendedThroughApi()).toEqual([]);
  });

  it('refuses a file that is not its own, naming it', async () => {
    const f = file();
    const c = await OrgControls.open(f);
    await c.suspend('x');
    writeFileSync(f, 'not json');
    await expect(OrgControls.open(f)).rejects.toThrow(/suspended\.json is not a docsync suspension file/);
  });

  it('combines suspension and windows: suspension first, then the windows, manual or not', () => {
    const c = OrgControls.inMemory(() => NOW);
    const windows = [
      {
        kind: 'deny' as const,
        schedule: '0 22 * * *',
        duration: '4h',
        durationMs: 4 * 3_600_000,
        manualSync: true,
        timeZone: 'UTC',
      },
    ];
    expect(c.applyBlocked('org_a', org({ suspended: true }), true)).toMatch(
      /in the config \(suspended: true/,
    );
    const windowed = org({ policy: { prune: false, maxDeletes: 10, syncWindows: windows } });
    expect(c.applyBlocked('org_a', windowed, false)).toMatch(/^deny window "0 22 \* \* \*"/);
    expect(c.applyBlocked('org_a', windowed, true)).toBeUndefined();
    expect(c.status('org_a', windowed)).toMatchObject({
      suspended: false,
      applyAllowed: false,
      manualSyncAllowed: true,
      syncWindows: [{ active: true, until: '2026-11-26T02:00:00.000Z' }],
    });
    expect(c.applyBlocked('org_a', org(), false)).toBeUndefined();
  });
});
