import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EtcdClient } from '../../src/coord/etcd-client.js';
import { rendezvousOwner } from '../../src/coord/rendezvous.js';
import type { Emulator } from '../../src/emulator/server.js';
import { until } from '../helpers/cli.js';
import { startDaemonProcess, type DaemonProcess } from '../helpers/daemon.js';
import { TOKEN, withEmulator } from '../helpers/emulator.js';
import { etcdBinary, followPrefix, startEtcd, type EtcdServer } from '../helpers/etcd.js';
import { duplicates } from '../helpers/invariants.js';

/**
 * Liveness on etcd (issue 34): an owner that is stopped, or whose etcd pauses, while creations are
 * in flight gets going again at once when the fault ends. Its ambiguous creations are not waited
 * for past what its closed gate allows (the old wait was --timeout + 1 s: 21 s here), its
 * organizations sync independently, and a change made after the fault is written within
 * 2 × TTL + one poll interval. A graceful stop while a sync waits ends within --stop-timeout and
 * hands the organizations over.
 *
 * The emulator's latency keeps creations in flight across the fault, past the gate's margin:
 * then a request already sent may land after the next owner wrote (decision 21 says why that is
 * not prevented); custom fields are unique by name (a late duplicate is refused with 409), so
 * nothing is duplicated, which is asserted; overlapping writes are not, by design of the fault.
 */
const etcd = etcdBinary();
// eslint-disable-next-line no-console -- the reason a test is skipped must show in any reporter
if ('missing' in etcd) console.warn(`skipping the etcd liveness test: ${etcd.missing}`);
/**
 * The lease: 2 s, as in the coordination test (the bounds below are 2 × TTL + an interval; what
 * they measured at a 3 s TTL, at a load of 14: 0.2–1.2 s, and at 2 s: 0.1–0.8 s). Every wait for a
 * takeover, a closing gate or a paused etcd is a TTL: a second less here is about three seconds
 * less of the file.
 */
const TTL = 2000;
const INTERVAL = 1000;
/** What the issue asks: after a fault ends, no owned organization goes longer without a sync. */
const BOUND = 2 * TTL + INTERVAL;
const STOP_TIMEOUT = 6000;
const ORGS = ['org_1', 'org_2', 'org_3', 'org_4'];
/** Long enough that a request sent before a fault is still in the server when the fault ends. */
const IN_FLIGHT_MS = 8000;

const seed = {
  organizations: ORGS.map((id) => ({
    id,
    title: id,
    members: [{ id: `u_${id}`, email: `${id}@example.com`, displayName: id, role: 'admin' }],
  })),
};

describe.skipIf('missing' in etcd)(`etcd liveness${'missing' in etcd ? ` (${etcd.missing})` : ''}`, () => {
  let server: EtcdServer;
  let emu: Emulator;
  let dir: string;
  let kv: EtcdClient;
  const replicas = new Map<string, DaemonProcess>();
  const fields = new Map(ORGS.map((org) => [org, ['base']]));

  const writeConfig = (org: string, add: string[] = []) => {
    fields.set(org, [...fields.get(org)!, ...add]);
    const list = fields.get(org)!.map((f) => `  - { name: ${f}, type: text, title: ${f} }`);
    writeFileSync(
      join(dir, 'config', `${org}.yaml`),
      `organization: ${org}\ncustomFields:\n${list.join('\n')}\n`,
    );
  };

  /** The organization's owner, waited for: between two replicas' runs an organization may be handed over. */
  const ownerOf = (org: string) => until(() => followed.get(org), 6 * TTL, 50);

  const ownersOf = (kvs: [string, string][]) =>
    new Map(
      kvs.map(([key, value]) => [
        key.slice('/docsync/owners/'.length),
        (JSON.parse(value) as { replica: string }).replica,
      ]),
    );
  /** The owner keys as etcd has them now (one read). */
  const owners = async () => ownersOf((await kv.range('/docsync/owners/')).map((k) => [k.key, k.value]));
  /**
   * The owner keys followed with etcd's watch (test/helpers/etcd.ts): the waits below look at
   * them rather than reading etcd every 50 ms.
   */
  let followed = new Map<string, string>();
  let follower: { close: () => void } | undefined;

  /** The creations of `org`'s fields that reached the emulator (from `who`, if given), answered or not. */
  const creations = (org: string, who?: string) =>
    emu
      .requests()
      .filter(
        (r) =>
          r.method === 'POST' &&
          r.path === `/v1/orgs/${org}/custom-fields` &&
          (who === undefined || r.userAgent?.includes(`(replica ${who})`)),
      );

  /** When the creation of a field reached the emulator (ms), or undefined (its body is logged once answered). */
  const created = (org: string, name: string, who?: string) =>
    creations(org, who)
      .filter((r) => (r.body as { name?: string } | undefined)?.name === name)
      .map((r) => Date.parse(r.at))[0];

  const converged = () =>
    until(
      () =>
        ORGS.every((org) => {
          const live = emu
            .state()
            .organizations.find((o) => o.id === org)!
            .customFields.map((f) => f.name);
          return fields.get(org)!.every((f) => live.includes(f));
        }),
      30_000,
      100,
    );

  /** Every organization has an owner among `ids`; the owner of each. */
  const ownedBy = (ids: string[]) =>
    until(
      () => {
        const o = followed;
        return ORGS.every((org) => ids.includes(o.get(org) ?? '')) ? o : undefined;
      },
      6 * TTL,
      50,
    );

  /** Every organization is owned by its rendezvous owner among r1 and r2 (the settled share). */
  const rendezvousOwned = () =>
    until(() => ORGS.every((x) => followed.get(x) === rendezvousOwner(x, ['r1', 'r2'])), 6 * TTL, 50);

  const startReplica = async (id: string) => {
    const proc = await startDaemonProcess(
      [
        ...['--config', join(dir, 'config'), '--mode', 'apply', '--interval', `${INTERVAL}ms`],
        ...['--drift-cron', '0 0 1 1 *', '--timeout', '20', '--concurrency', '2'],
        ...['--etcd-endpoints', server.url, '--replica-id', id, '--lease-ttl', `${TTL / 1000}s`],
        ...['--stop-timeout', `${STOP_TIMEOUT / 1000}s`],
        ...['--state-dir', join(dir, `state-${id}`), '--log-level', 'info'],
      ],
      { DOCSYNC_API_URL: emu.url, DOCSYNC_TOKEN: TOKEN, DOCSYNC_ETCD_ENDPOINTS: undefined },
    );
    replicas.set(id, proc);
    return proc;
  };

  /**
   * Add fields to `org` with every creation held `IN_FLIGHT_MS` in the server; resolves once
   * the owner's first creation reached the server (it is in flight), with latency off again
   * for what comes next (requests already in the server keep theirs). The request log records a
   * request when it arrives but its body only once its delay is over, so the arrival is counted
   * (every field of `org` exists before: any creation is one of `names`).
   */
  const inFlight = async (org: string, owner: string, names: string[]) => {
    const before = creations(org, owner).length;
    emu.setFaults({ latencyMs: IN_FLIGHT_MS, latencyMethods: ['POST'] });
    writeConfig(org, names);
    await until(() => creations(org, owner).length > before, 15_000, 5);
    emu.setFaults({});
  };

  /** Every organization `who` owns was synced (or confirmed in sync) after `since`: how long after. */
  const syncedAfter = async (who: string, since: number) => {
    const proc = replicas.get(who)!;
    await until(
      async () => {
        const s = await proc.status();
        const owned: string[] = s.coordination.owned;
        return (
          owned.length > 0 &&
          owned.every((org) => Date.parse(s.organizations?.[org]?.inSyncAt ?? '0') > since)
        );
      },
      30_000,
      50,
    );
    return Date.now() - since;
  };

  beforeAll(async () => {
    if ('missing' in etcd) return;
    server = await startEtcd(etcd.path);
    // The client's own deadline (2 s): the test's one read must not fail because etcd, one Go
    // thread among the suite's processes and a CPU burner, took more than 300 ms to answer.
    kv = new EtcdClient({ endpoints: [server.url] });
    follower = followPrefix(server.url, '/docsync/owners/', (kvs) => (followed = ownersOf([...kvs])));
    emu = await withEmulator({ seed });
    dir = mkdtempSync(join(tmpdir(), 'docsync-etcd-liveness-'));
    mkdirSync(join(dir, 'config'));
    for (const org of ORGS) writeConfig(org);
    await Promise.all(['r1', 'r2'].map(startReplica));
    await ownedBy(['r1', 'r2']);
    // The first replica up may own every organization until the second takes its share: the
    // tests pick an organization's owner, which must not change under them.
    await rendezvousOwned();
    await converged();
  }, 60_000);

  afterAll(async () => {
    server?.resume();
    for (const proc of replicas.values()) {
      proc.child.kill('SIGCONT');
      proc.child.kill('SIGKILL');
    }
    // Reaped before the file ends: their CPU is counted in the file's (DOCSYNC_TEST_CPU).
    await Promise.all([...replicas.values()].map((proc) => proc.exit));
    follower?.close();
    await kv?.close();
    await emu?.close();
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('an owner stopped with creations in flight syncs its organizations within 2 × TTL + an interval of resuming', async () => {
    const org = 'org_1';
    const paused = await ownerOf(org);
    const other = paused === 'r1' ? 'r2' : 'r1';
    await inFlight(org, paused, ['stop_a', 'stop_b', 'stop_c', 'stop_d']);
    replicas.get(paused)!.child.kill('SIGSTOP');
    // The other replica takes everything over once the lease expired, and writes the fields.
    await ownedBy([other]);
    const resumedAt = Date.now();
    replicas.get(paused)!.child.kill('SIGCONT');
    // Its share comes back (rendezvous hashing) and is synced, within the bound.
    await rendezvousOwned();
    const back = await syncedAfter(paused, resumedAt);
    expect(back).toBeLessThan(BOUND);
    // A change made now is written by it within the bound (its apply does not wait 21 s).
    const changedAt = Date.now();
    writeConfig(org, ['after_stop']);
    const written = await until(() => created(org, 'after_stop'), 30_000, 20);
    expect(written - changedAt).toBeLessThan(BOUND);
    // The histogram saw it (once the answer reached the replica: the write above is its arrival).
    const applied = async () => {
      const metrics = await (await fetch(`${replicas.get(paused)!.url}/metrics`)).text();
      return Number(/^docsync_change_to_apply_seconds_count (\d+)/m.exec(metrics)?.[1]) > 0;
    };
    await until(applied, 10_000, 50);
    await converged();
    expect(duplicates(emu.state())).toEqual([]);
  }, 90_000);

  it('etcd paused while creations are in flight: after it resumes, a change is written within 2 × TTL + an interval', async () => {
    const org = 'org_2';
    const owner = await ownerOf(org);
    await inFlight(org, owner, ['pause_a', 'pause_b', 'pause_c']);
    server.pause();
    // Past the TTL: every gate closes, and the in-flight creations are cut at the gate. A paused
    // etcd renews nothing, so every lease expires by TTL after the pause (its gate closed a margin
    // before); 250 ms more for the signal and the timers, not a whole second.
    await new Promise((resolve) => setTimeout(resolve, TTL + 250));
    writeConfig(org, ['after_pause']);
    const resumedAt = Date.now();
    server.resume();
    const written = await until(() => created(org, 'after_pause'), 30_000, 20);
    expect(written - resumedAt).toBeLessThan(BOUND);
    for (const id of replicas.keys()) {
      const synced = await syncedAfter(id, resumedAt);
      expect(synced).toBeLessThan(BOUND);
    }
    await converged();
    expect(duplicates(emu.state())).toEqual([]);
  }, 90_000);

  it('a graceful stop while a sync waits for an ambiguous creation ends within --stop-timeout and hands over', async () => {
    const org = 'org_3';
    const owner = await ownerOf(org);
    const other = owner === 'r1' ? 'r2' : 'r1';
    const proc = replicas.get(owner)!;
    emu.setFaults({ latencyMs: IN_FLIGHT_MS, latencyMethods: ['POST'] });
    writeConfig(org, ['term_a']);
    // The creation was cut at the gate (its deadline, at most TTL − margin): now it settles.
    await until(() => /creation outcome unknown; waiting for it to settle/.test(proc.stderr()), 15_000, 20);
    emu.setFaults({});
    const stoppedAt = Date.now();
    proc.child.kill('SIGTERM');
    expect(await proc.exit).toBe(0);
    const exitedAt = Date.now();
    expect(exitedAt - stoppedAt).toBeLessThan(STOP_TIMEOUT);
    replicas.delete(owner);
    expect(proc.stderr()).not.toContain('stop timeout passed');
    // It revoked its lease before exiting: none of its owner keys is left. Had it only stopped
    // renewing, they would outlive it by at least two thirds of the TTL (renewed every third).
    expect([...(await owners()).values()]).not.toContain(owner);
    // And the other replica takes everything over well before the TTL would have expired it.
    await ownedBy([other]);
    expect(Date.now() - exitedAt).toBeLessThan(TTL);
    await converged();
    expect(duplicates(emu.state())).toEqual([]);
  }, 60_000);
});
