import { LockError } from '../apply/lock.js';
import type { WriteGate } from '../api/write-gate.js';
import type { Logger } from '../log/logger.js';
import type { EtcdClient, KeyValue } from './etcd-client.js';
import { defaultMarginMs, LeaseClock } from './lease-clock.js';
import { rendezvousOwner } from './rendezvous.js';
import type { CoordinationObserver, CoordinationStatus, Coordinator, Holds } from './types.js';
import { DocsyncError } from '../errors.js';
import { sleep } from '../api/http.js';

export type EtcdCoordinatorOptions = {
  client: EtcdClient;
  replica: string;
  /** Key prefix, ending in `/` (default `/docsync/`). */
  prefix?: string;
  /** Lease TTL in ms (whole seconds on the server; default 15 s). */
  ttlMs?: number;
  /** Writes stop this long before the lease could expire (default: a fifth of the TTL, at least 500 ms). */
  marginMs?: number;
  /**
   * `replica`: a daemon, registered as a member; organizations are spread over members and held
   * between runs. `cli`: an `apply` that claims what it writes for one run, then lets go.
   */
  role: 'replica' | 'cli';
  logger: Logger;
  observer?: CoordinationObserver;
};

type Owner = { replica: string; lease: string; createRevision: string };

/**
 * Ownership on etcd (decision 21). One lease per process, renewed every third of its TTL; each
 * organization's owner key `<prefix>owners/<org>` is created bound to that lease only if absent,
 * its creation revision being the fencing token. A replica claims the organizations that
 * rendezvous hashing gives it among live members (or any left unowned for longer than the TTL),
 * releases between runs those that now belong to another member or that a CLI waits for, and writes
 * only through gates that close before its lease could have expired.
 */
export class EtcdCoordinator implements Coordinator {
  readonly backend = 'etcd' as const;
  readonly replica: string;
  private readonly client: EtcdClient;
  private readonly prefix: string;
  private readonly ttlMs: number;
  private readonly clock: LeaseClock;
  private readonly log: Logger;
  private lease: string | undefined;
  /** Organization → creation revision of the owner key this process created. */
  private readonly owned = new Map<string, string>();
  private readonly busy = new Map<string, number>();
  private managed: string[] = [];
  private members: string[] = [];
  private readonly unownedSince = new Map<string, number>();
  private timers: NodeJS.Timeout[] = [];
  private renewing: Promise<void> | null = null;
  private reconciling: Promise<void> | null = null;
  private lastError: string | undefined;
  private stopped = false;
  private draining = false;
  /** The revision of the last source announcement seen (undefined: none read yet). */
  private announcedAt: string | undefined;

  constructor(private readonly opts: EtcdCoordinatorOptions) {
    this.client = opts.client;
    this.replica = opts.replica;
    this.prefix = opts.prefix ?? '/docsync/';
    this.ttlMs = Math.max(1000, Math.round((opts.ttlMs ?? 15_000) / 1000) * 1000);
    this.clock = new LeaseClock(this.ttlMs, opts.marginMs ?? defaultMarginMs(this.ttlMs));
    this.log = opts.logger.child({ replica: this.replica, backend: 'etcd' });
  }

  private key(kind: 'members' | 'owners' | 'waiting' | 'signal', ...parts: string[]): string {
    return `${this.prefix}${kind}/${parts.join('/')}`;
  }

  /** Take a lease (a replica also registers), then renew it, and (replica) reconcile ownership. */
  async start(): Promise<void> {
    await this.renew();
    // A CLI needs its lease now; a replica keeps trying (not ready meanwhile: etcd may be starting).
    if (!this.clock.held() && this.opts.role === 'cli')
      throw new DocsyncError('coordination', `cannot start an etcd session: ${this.lastError ?? 'no lease'}`);
    const every = Math.max(200, Math.floor(this.ttlMs / 3));
    this.timers.push(setInterval(() => void this.renew(), every));
    if (this.opts.role === 'replica') {
      await this.reconcile();
      this.timers.push(setInterval(() => void this.reconcile(), every));
    }
    for (const t of this.timers) t.unref?.();
  }

  /** Single flight: grant (and register) when there is no lease, else keep it alive. */
  private renew(): Promise<void> {
    this.renewing ??= this.renewOnce().finally(() => (this.renewing = null));
    return this.renewing;
  }

  private async renewOnce(): Promise<void> {
    if (this.stopped) return;
    const sent = this.clock.mark();
    try {
      if (this.lease === undefined) {
        const lease = await this.client.grant(this.ttlMs / 1000);
        this.clock.renewed(sent);
        this.lease = lease;
        this.owned.clear();
        if (this.opts.role === 'replica') await this.register(lease);
        this.log.info({ lease, ttlMs: this.ttlMs }, 'etcd lease granted');
      } else {
        const ttl = await this.client.keepAlive(this.lease);
        if (ttl > 0) {
          const wasHeld = this.clock.held();
          this.clock.renewed(sent);
          // Back after an outage (etcd restarted, the network healed): sync what is still owned.
          if (!wasHeld && this.owned.size > 0) this.opts.observer?.gained?.([...this.owned.keys()]);
        } else {
          this.log.warn({ lease: this.lease }, 'etcd lease expired; ownership lost, taking a new lease');
          this.dropLease('the etcd lease expired');
          return this.renewOnce();
        }
      }
      this.lastError = undefined;
    } catch (error) {
      this.lastError = (error as Error).message;
      this.opts.observer?.renewFailed?.();
      this.log.warn({ err: this.lastError }, 'etcd lease renewal failed');
    }
  }

  private dropLease(reason: string): void {
    this.lease = undefined;
    this.clock.lost();
    this.owned.clear();
    this.lastError = reason;
    this.opts.observer?.renewFailed?.();
    this.opts.observer?.owned?.(0);
  }

  /** The member key, created only if absent: two processes with one replica id would both own. */
  private async register(lease: string): Promise<void> {
    const value = JSON.stringify({ replica: this.replica, lease, since: new Date().toISOString() });
    const r = await this.client.create(this.key('members', this.replica), value, lease);
    if (r.created) return;
    const holder = r.existing?.lease;
    await this.client.revoke(lease);
    this.lease = undefined;
    this.clock.lost();
    throw new DocsyncError(
      'coordination',
      `replica id ${this.replica} is registered by another process (lease ${holder ?? '?'}); ` +
        'give each replica its own --replica-id (a lease of a dead process expires after its TTL)',
    );
  }

  private reconcile(): Promise<void> {
    this.reconciling ??= this.reconcileOnce()
      .catch((error: unknown) => {
        this.lastError = (error as Error).message;
        this.log.warn({ err: this.lastError }, 'etcd ownership check failed');
      })
      .finally(() => (this.reconciling = null));
    return this.reconciling;
  }

  private async reconcileOnce(): Promise<void> {
    const lease = this.lease;
    if (this.stopped || lease === undefined || !this.clock.held()) return;
    const kvs = await this.client.range(this.prefix);
    const members: string[] = [];
    const owners = new Map<string, Owner>();
    const waiting = new Set<string>();
    for (const kv of kvs) {
      const rest = kv.key.slice(this.prefix.length);
      const [kind, name] = [rest.slice(0, rest.indexOf('/')), rest.slice(rest.indexOf('/') + 1)];
      if (kind === 'members') members.push(name);
      else if (kind === 'owners') owners.set(name, owner(kv));
      else if (kind === 'waiting') waiting.add(name.slice(0, name.lastIndexOf('/')));
      else if (kind === 'signal' && name === 'source') this.noticeAnnouncement(kv);
    }
    if (this.announcedAt === undefined) this.announcedAt = '0';
    this.members = members.sort();
    for (const [org, revision] of this.owned) {
      const o = owners.get(org);
      if (!o || o.createRevision !== revision) {
        this.owned.delete(org);
        this.log.warn({ org }, 'ownership of an organization lost');
      }
    }
    const gained: string[] = [];
    const now = performance.now();
    for (const org of new Set([...this.managed, ...this.owned.keys()])) {
      const target = rendezvousOwner(org, this.members);
      const o = owners.get(org);
      if (o) this.unownedSince.delete(org);
      // A key bound to this very lease is this process's (a release whose delete failed, say).
      if (o && o.lease === lease && !this.owned.has(org)) this.owned.set(org, o.createRevision);
      if (this.owned.has(org)) {
        const move =
          !this.managed.includes(org) ||
          waiting.has(org) ||
          (target !== undefined && target !== this.replica);
        if (move && !this.busy.get(org)) await this.release(org);
        continue;
      }
      if (o || waiting.has(org) || !this.managed.includes(org)) continue;
      const since = this.unownedSince.get(org) ?? now;
      this.unownedSince.set(org, since);
      // The rendezvous owner claims at once; anyone claims what stayed unowned for a whole TTL.
      if (target !== this.replica && now - since < this.ttlMs) continue;
      if (!this.clock.held() || this.lease !== lease) return;
      const r = await this.createOwner(org, lease);
      if (r.created) {
        this.unownedSince.delete(org);
        gained.push(org);
        this.log.info({ org, token: r.revision }, 'organization claimed');
      }
    }
    this.opts.observer?.owned?.(this.owned.size);
    this.opts.observer?.unowned?.(
      this.managed.filter((org) => !owners.has(org) && !this.owned.has(org)).length,
    );
    if (gained.length > 0) this.opts.observer?.gained?.(gained);
  }

  private noticeAnnouncement(kv: KeyValue): void {
    const first = this.announcedAt === undefined;
    if (this.announcedAt === kv.modRevision) return;
    this.announcedAt = kv.modRevision;
    if (!first && !kv.value.startsWith(`${this.replica} `)) this.opts.observer?.announced?.();
  }

  async announce(): Promise<void> {
    await this.client.put(this.key('signal', 'source'), `${this.replica} ${new Date().toISOString()}`);
  }

  /** The organization's owner key, created bound to `lease` only if absent: then this process owns it. */
  private async createOwner(org: string, lease: string): ReturnType<EtcdClient['create']> {
    const value = JSON.stringify({ replica: this.replica, lease });
    const r = await this.client.create(this.key('owners', org), value, lease);
    if (r.created) this.owned.set(org, r.revision);
    return r;
  }

  private async release(org: string): Promise<void> {
    const revision = this.owned.get(org);
    if (revision === undefined) return;
    this.owned.delete(org);
    await this.client.deleteIfCreated(this.key('owners', org), revision);
    this.log.info({ org }, 'organization released');
  }

  /** A run's write gates, by the owner keys' creation revisions it holds (organization → revision). */
  private gates(revisions: Map<string, string>): Holds['gateFor'] {
    return (org): WriteGate | undefined => {
      const revision = revisions.get(org);
      if (revision === undefined) return undefined;
      return {
        label: `replica ${this.replica} no longer certainly owns organization ${org}`,
        remainingMs: () => (this.owned.get(org) === revision ? this.clock.remainingMs() : 0),
      };
    };
  }

  async hold(orgs: string[], waitMs: number): Promise<Holds> {
    return this.opts.role === 'replica' ? this.holdOwned(orgs) : this.claim(orgs, waitMs);
  }

  /** A replica's run: the organizations it owns now, kept (not released) until the run ends. */
  private holdOwned(orgs: string[]): Holds {
    const held = this.clock.held() ? orgs.filter((org) => this.owned.has(org)) : [];
    const revisions = new Map(held.map((org) => [org, this.owned.get(org)!]));
    for (const org of held) this.busy.set(org, (this.busy.get(org) ?? 0) + 1);
    let released = false;
    return {
      orgs: held,
      gateFor: this.gates(revisions),
      release: async () => {
        if (released) return;
        released = true;
        for (const org of held) this.busy.set(org, (this.busy.get(org) ?? 1) - 1);
        await this.reconcile();
      },
    };
  }

  /** A CLI's run: claim every organization (announcing that it waits, so replicas let go), or fail after `waitMs`. */
  private async claim(orgs: string[], waitMs: number): Promise<Holds> {
    const deadline = performance.now() + waitMs;
    const lease = this.lease!;
    const release = async () => {
      for (const org of [...this.owned.keys()]) await this.release(org).catch(() => undefined);
      await this.stop();
    };
    try {
      for (const org of orgs)
        await this.client.put(this.key('waiting', org, this.replica), this.replica, lease);
      for (;;) {
        const blockers: string[] = [];
        for (const org of orgs) {
          if (this.owned.has(org)) continue;
          if (!this.clock.held())
            throw new DocsyncError('coordination', `the etcd lease is not held: ${this.lastError ?? ''}`);
          const r = await this.createOwner(org, lease);
          if (!r.created)
            blockers.push(`organization ${org} is owned by ${r.existing ? owner(r.existing).replica : '?'}`);
        }
        if (blockers.length === 0) break;
        if (performance.now() >= deadline)
          throw new LockError(
            `${blockers.join('; ')} (etcd). Wait for it with --lock-wait SECONDS: a daemon replica lets go between runs.`,
          );
        await sleep(Math.min(250, Math.max(20, deadline - performance.now())));
      }
    } catch (error) {
      await release();
      throw error;
    }
    return {
      orgs: [...orgs],
      gateFor: this.gates(new Map(this.owned)),
      release,
    };
  }

  manage(orgs: string[]): void {
    this.managed = this.draining ? [] : [...orgs];
    void this.reconcile();
  }

  async drain(timeoutMs: number): Promise<void> {
    this.draining = true;
    this.managed = [];
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      await this.reconcile();
      if (this.owned.size === 0 || performance.now() >= deadline) break;
      await sleep(100);
    }
    this.log.info({ owned: [...this.owned.keys()] }, 'drained: organizations handed over');
  }

  owns(org: string): boolean {
    return this.clock.held() && this.owned.has(org);
  }

  status(): CoordinationStatus {
    return {
      backend: 'etcd',
      replica: this.replica,
      owned: this.clock.held() ? [...this.owned.keys()].sort() : [],
      members: [...this.members],
    };
  }

  session(): { ok: boolean; reason?: string } {
    if (this.draining) return { ok: false, reason: 'draining: this replica is stopping' };
    return this.clock.held()
      ? { ok: true }
      : { ok: false, reason: `the etcd lease is not held: ${this.lastError ?? 'no session'}` };
  }

  /** Stop renewing and revoke the lease: every key bound to it (member, owners, waits) goes at once. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    await this.renewing;
    await this.reconciling;
    const lease = this.lease;
    this.lease = undefined;
    this.clock.lost();
    this.owned.clear();
    if (lease !== undefined)
      await this.client.revoke(lease).catch((error: unknown) => {
        this.log.warn(
          { err: (error as Error).message },
          'etcd lease revoke failed; it expires after its TTL',
        );
      });
    await this.client.close();
  }
}

function owner(kv: KeyValue): Owner {
  try {
    const v = JSON.parse(kv.value) as { replica?: string; lease?: string };
    return { replica: v.replica ?? '?', lease: v.lease ?? kv.lease ?? '', createRevision: kv.createRevision };
  } catch {
    return { replica: '?', lease: kv.lease ?? '', createRevision: kv.createRevision };
  }
}
