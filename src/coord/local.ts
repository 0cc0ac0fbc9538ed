import { hostname } from 'node:os';
import { acquireLock } from '../apply/lock.js';
import type { Logger } from '../log/logger.js';
import type { CoordinationObserver, CoordinationStatus, Coordinator, Holds } from './types.js';

/** The lock that keeps a second daemon off one state folder (the organizations' locks sit beside it). */
const DAEMON_LOCK = '.daemon';

/**
 * Without etcd: one writer per organization through lock files in the state folder (decision 7).
 * A daemon also holds the state folder's daemon lock, so a second replica on it refuses to start.
 */
export class LocalCoordinator implements Coordinator {
  readonly backend = 'local' as const;
  private orgs: string[] = [];
  private daemonLock: (() => Promise<void>) | undefined;

  constructor(
    private readonly stateDir: string,
    private readonly owner: string,
    private readonly onTakeover: (message: string) => void,
    readonly replica = hostname(),
    private readonly observer: CoordinationObserver = {},
    /** Where the daemon lock lives: the daemon's own (per-source) folder; default the state folder. */
    private readonly daemonDir = stateDir,
  ) {}

  /** A daemon: refuse to start when another daemon runs on the same (source's) state folder. */
  async startDaemon(): Promise<void> {
    this.daemonLock = await acquireLock(this.daemonDir, DAEMON_LOCK, this.owner, 0, this.onTakeover);
  }

  async hold(orgs: string[], waitMs: number): Promise<Holds> {
    const releases: (() => Promise<void>)[] = [];
    const releaseAll = async () => {
      for (const release of releases.splice(0)) await release();
    };
    try {
      for (const org of orgs)
        releases.push(await acquireLock(this.stateDir, org, this.owner, waitMs, this.onTakeover));
    } catch (error) {
      await releaseAll();
      throw error;
    }
    return { orgs: [...orgs], gateFor: () => undefined, release: releaseAll };
  }

  manage(orgs: string[]): void {
    this.orgs = [...orgs];
    this.observer.owned?.(orgs.length);
    this.observer.unowned?.(0);
  }

  owns(): boolean {
    return true;
  }

  status(): CoordinationStatus {
    return { backend: 'local', replica: this.replica, owned: [...this.orgs], members: [this.replica] };
  }

  async drain(): Promise<void> {
    // One daemon per state folder: there is nobody to hand organizations to.
  }

  async announce(): Promise<void> {
    // Nobody else to tell.
  }

  session(): { ok: boolean } {
    return { ok: true };
  }

  async stop(): Promise<void> {
    await this.daemonLock?.();
    this.daemonLock = undefined;
  }
}

/**
 * A daemon's coordinator without etcd; a stale lock it takes over is logged. Its `startDaemon`
 * takes the state folder's daemon lock: call it before the daemon's first run, `stop` after the last.
 */
export function localDaemonCoordinator(
  stateDir: string,
  logger: Logger,
  replica?: string,
  observer?: CoordinationObserver,
  daemonDir?: string,
): LocalCoordinator {
  const onTakeover = (message: string) => logger.warn({ message }, 'stale lock taken over');
  return new LocalCoordinator(stateDir, 'docsync daemon', onTakeover, replica, observer, daemonDir);
}
