import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/client.js';
import { loadConfigFromBuffers } from '../../src/config/load.js';
import type { Emulator } from '../../src/emulator/server.js';
import type { DesiredState } from '../../src/reconcile/index.js';
import { runSync } from '../../src/pipeline/sync.js';
import { runMain } from '../helpers/cli.js';
import { baseSeed, call, client, TOKEN, withEmulator } from '../helpers/emulator.js';

/**
 * Verified apply: after applying, the pipeline (the CLI's `apply` and the daemon's syncs) re-reads
 * what it changed, the affected lists only, and says whether live state converged. An API that
 * answers a write with success and keeps nothing (the emulator's `ignoreWrites` fault) is caught.
 */
const YAML = `organization: org_t
customFields:
  - { name: owner, type: text }
sites:
  - title: Docs
    visibility: public
    shareLinks:
      - { name: partner, active: true }
`;

const desiredOf = (yaml: string): DesiredState => {
  const r = loadConfigFromBuffers([{ file: 'org.yaml', bytes: Buffer.from(yaml) }]);
  if (!r.desired) throw new Error(JSON.stringify(r.issues));
  return r.desired;
};

describe('verified apply', () => {
  let emu: Emulator;
  let api: ApiClient;

  beforeEach(async () => {
    emu = await withEmulator({ seed: baseSeed(2) });
    api = client(emu, { concurrency: 2, timeoutMs: 5000 });
    // The custom field exists already: only the site's lists change.
    await call(emu, 'POST', '/orgs/org_t/custom-fields', { name: 'owner', type: 'text' });
  });
  afterEach(async () => {
    await api.close();
    await emu.close();
  });

  const sync = () =>
    runSync({
      api,
      desired: desiredOf(YAML),
      apply: true,
      allowDeletes: 0,
      hold: async (orgs) => ({ orgs, gateFor: () => undefined, release: async () => {} }),
    });

  it('re-reads the affected lists only, and reports converged', async () => {
    const outcome = await sync();
    expect(outcome.result).toBe('applied');
    if (outcome.result === 'not-owned') throw new Error('not owned');
    expect(outcome.verified).toEqual({ converged: true, reread: { org_t: ['sites'] }, remaining: [] });
    // The custom fields were not touched: the re-read (every request after the last write) did
    // not read them again.
    const reread = emu.requests().slice(emu.requests().findLastIndex((r) => r.method !== 'GET') + 1);
    expect(reread.some((r) => r.path.endsWith('/orgs/org_t/sites'))).toBe(true);
    expect(reread.filter((r) => r.path.includes('custom-fields'))).toEqual([]);
  });

  it('reports what remains when the API accepted a write and kept nothing', async () => {
    emu.setFaults({ ignoreWrites: { path: '/share-links' } });
    const outcome = await sync();
    if (outcome.result === 'not-owned') throw new Error('not owned');
    expect(outcome.result).toBe('applied');
    expect(outcome.verified).toMatchObject({
      converged: false,
      remaining: [{ action: 'create', kind: 'share-link', address: 'org_t/sites/Docs/share-links/partner' }],
    });
  });

  it('the CLI prints the verdict, and the JSON form carries it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docsync-verify-'));
    try {
      mkdirSync(join(dir, 'config'));
      writeFileSync(join(dir, 'config', 'org.yaml'), YAML);
      emu.setFaults({ ignoreWrites: { path: '/share-links' } });
      const env = { DOCSYNC_TOKEN: TOKEN, DOCSYNC_STATE_DIR: join(dir, 'state') };
      const args = ['apply', '--config', join(dir, 'config'), '--api-url', emu.url, '--yes'];
      const text = await runMain(args, env);
      expect(text.stdout).toContain(
        'verify: not converged, 1 difference(s) remain after apply (re-read sites): create share-link org_t/sites/Docs/share-links/partner',
      );
      expect(text.code).toBe(0);
      emu.setFaults({});
      const json = await runMain([...args, '-o', 'json'], env);
      const line = json.stdout.split('\n').find((l) => l.startsWith('{"verify"'));
      expect(JSON.parse(line!)).toEqual({
        verify: { converged: true, reread: { org_t: ['sites'] }, remaining: [] },
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
