import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireLock } from '../../src/apply/lock.js';
import { Daemon } from '../../src/daemon/daemon.js';
import { readiness } from '../../src/daemon/health.js';
import { createMetrics } from '../../src/daemon/metrics.js';
import { createLogger } from '../../src/log/logger.js';
import { FolderSource } from '../../src/source/folder-source.js';
import { until } from '../helpers/cli.js';
import { TEST_PEM, TEST_PEM_2 } from '../helpers/certificates.js';
import { client, withEmulator } from '../helpers/emulator.js';

/**
 * Organizations sync independently (issue 34), in process: one organization stalls (a CLI apply
 * holds its lock, so the daemon's run waits for it), and the other one is synced all the same,
 * then the stalled one once it is free. The old daemon ran one sync for all organizations at once:
 * nothing was written until the lock was free.
 */
describe('the daemon syncs each organization in its own queue', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('a stalled organization does not delay another one', async () => {
    const orgs = ['org_fast', 'org_slow'];
    const emu = await withEmulator({
      seed: {
        organizations: orgs.map((id) => ({
          id,
          title: id,
          members: [{ id: `u_${id}`, email: `${id}@example.com`, displayName: id, role: 'admin' }],
        })),
      },
    });
    cleanups.push(() => emu.close());
    const dir = mkdtempSync(join(tmpdir(), 'docsync-daemon-orgs-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const [config, stateDir] = [join(dir, 'config'), join(dir, 'state')];
    mkdirSync(config);
    mkdirSync(stateDir);
    for (const org of orgs)
      writeFileSync(
        join(config, `${org}.yaml`),
        `organization: ${org}\ncustomFields:\n  - { name: f, type: text }\n`,
      );
    const fields = (org: string) => emu.state().organizations.find((o) => o.id === org)!.customFields.length;

    // Someone else holds org_slow (a CLI apply, say) for now.
    const unlock = await acquireLock(stateDir, 'org_slow', 'a test', 0);
    const api = client(emu);
    cleanups.push(() => api.close());
    const metrics = createMetrics();
    const daemon = new Daemon(new FolderSource(config), api, createLogger('silent'), metrics, {
      mode: 'apply',
      intervalMs: 3_600_000,
      selfHeal: false,
      allowDeletes: 0,
      stateDir,
      reminderMs: 3_600_000,
      stopTimeoutMs: 2_000,
    });
    cleanups.push(() => daemon.stop());
    await daemon.start();

    await until(() => fields('org_fast') === 1, 10_000, 20);
    expect(fields('org_slow')).toBe(0);
    await until(() => daemon.status.organizations?.['org_fast']?.lastResult === 'applied', 5_000, 20);
    expect(daemon.status.organizations?.['org_slow']?.pendingSince).toBeDefined();

    await unlock();
    await until(() => fields('org_slow') === 1, 10_000, 20);
    await daemon.idle();
    expect(daemon.status.organizations?.['org_slow']).toMatchObject({ lastResult: 'applied' });
    expect(daemon.status.organizations?.['org_slow']?.pendingSince).toBeUndefined();
    expect(await metrics.registry.metrics()).toMatch(/docsync_change_to_apply_seconds_count 2\n/);
  });

  it("readiness keeps each organization's last read: a later good read of another one hides no failure", async () => {
    // org_gone is not on the platform: every read of it fails; org_ok reads fine.
    const emu = await withEmulator({
      seed: {
        organizations: [
          {
            id: 'org_ok',
            title: 'org_ok',
            members: [{ id: 'u_ok', email: 'ok@example.com', displayName: 'ok', role: 'admin' }],
          },
        ],
      },
    });
    cleanups.push(() => emu.close());
    const dir = mkdtempSync(join(tmpdir(), 'docsync-daemon-reads-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const [config, stateDir] = [join(dir, 'config'), join(dir, 'state')];
    mkdirSync(config);
    mkdirSync(stateDir);
    for (const org of ['org_ok', 'org_gone'])
      writeFileSync(
        join(config, `${org}.yaml`),
        `organization: ${org}\ncustomFields:\n  - { name: f, type: text }\n`,
      );
    const api = client(emu);
    cleanups.push(() => api.close());
    const daemon = new Daemon(new FolderSource(config), api, createLogger('silent'), createMetrics(), {
      mode: 'plan',
      intervalMs: 3_600_000,
      selfHeal: false,
      allowDeletes: 0,
      stateDir,
      reminderMs: 3_600_000,
      stopTimeoutMs: 2_000,
    });
    cleanups.push(() => daemon.stop());
    await daemon.start();
    await until(() => daemon.ready, 10_000, 20);
    await daemon.idle();
    const ready = () => readiness(daemon.ready, daemon.status.liveRead ?? null).ready;
    expect(daemon.status.organizations?.['org_gone']?.liveRead).toMatchObject({ ok: false });
    expect(ready()).toBe(false);

    // org_ok alone is read again, after org_gone: its good read must not make the daemon ready.
    const before = daemon.status.organizations?.['org_ok']?.lastSyncAt;
    daemon.ownershipGained(['org_ok']);
    await until(() => daemon.status.organizations?.['org_ok']?.lastSyncAt !== before, 10_000, 20);
    await daemon.idle();
    expect(daemon.status.organizations?.['org_ok']?.liveRead).toMatchObject({ ok: true });
    expect(ready()).toBe(false);
    expect(daemon.status.liveRead).toMatchObject({ ok: false, error: expect.stringMatching(/^org_gone: /) });
  });

  it('an apply sends the certificate loaded with its config, even when the checkout changed since', async () => {
    const emu = await withEmulator({
      seed: {
        organizations: [
          {
            id: 'org_c',
            title: 'org_c',
            members: [{ id: 'u_c', email: 'c@example.com', displayName: 'c', role: 'admin' }],
          },
        ],
      },
    });
    cleanups.push(() => emu.close());
    const dir = mkdtempSync(join(tmpdir(), 'docsync-daemon-certs-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const [config, stateDir] = [join(dir, 'repo', 'config'), join(dir, 'state')];
    mkdirSync(join(dir, 'repo', '.git'), { recursive: true });
    mkdirSync(config);
    mkdirSync(stateDir);
    writeFileSync(join(config, 'okta.pem'), TEST_PEM);
    writeFileSync(
      join(config, 'org.yaml'),
      'organization: org_c\nsaml:\n  - label: Okta\n    certificate: { file: okta.pem }\n',
    );
    // The sync waits for the organization's lock; meanwhile a fetch rewrites the checkout (here:
    // the certificate file changes under it, and no reload happened yet).
    const unlock = await acquireLock(stateDir, 'org_c', 'a test', 0);
    const api = client(emu);
    cleanups.push(() => api.close());
    const daemon = new Daemon(new FolderSource(config), api, createLogger('silent'), createMetrics(), {
      mode: 'apply',
      intervalMs: 3_600_000,
      selfHeal: false,
      allowDeletes: 0,
      stateDir,
      reminderMs: 3_600_000,
      stopTimeoutMs: 2_000,
    });
    cleanups.push(() => daemon.stop());
    await daemon.start();
    await until(() => daemon.status.organizations?.['org_c']?.pendingSince !== undefined, 10_000, 20);
    writeFileSync(join(config, 'okta.pem'), TEST_PEM_2);
    await unlock();
    await until(() => daemon.status.organizations?.['org_c']?.lastResult !== undefined, 10_000, 20);
    // The old apply re-read the file and failed: "changed since the plan was made".
    expect(daemon.status.organizations?.['org_c']?.lastResult).toBe('applied');
    const saml = emu.state().organizations[0]!.saml ?? [];
    expect(saml.map((p) => p.certificate?.trim())).toEqual([TEST_PEM.trim()]);
  });
});
