import type { WriteGate } from '../api/write-gate.js';

/**
 * Ownership of organizations (decision 21), behind one interface with two backends: `local`
 * (lock files in the state folder, one process) and `etcd` (leases, spread over replicas).
 */
export type Holds = {
  /** The organizations this run may write (a subset of those asked for). */
  orgs: string[];
  /** The write gate of a held organization; undefined: writes are not gated (local lock). */
  gateFor(org: string): WriteGate | undefined;
  release(): Promise<void>;
};

export type CoordinationStatus = {
  backend: 'local' | 'etcd';
  replica: string;
  /** Organizations this replica owns now. */
  owned: string[];
  /** Live replicas (etcd), or this one (local). */
  members: string[];
};

export type Coordinator = {
  readonly backend: CoordinationStatus['backend'];
  /**
   * Take the organizations for one run. Local: waits up to `waitMs` for each lock. etcd, as a
   * daemon replica: the organizations it owns now (never waits); as a CLI: claims each, waiting.
   */
  hold(orgs: string[], waitMs: number): Promise<Holds>;
  /** The organizations the configuration names (a daemon replica spreads these). */
  manage(orgs: string[]): void;
  /** Whether this replica would write these organizations now (drift checks read only those). */
  owns(org: string): boolean;
  status(): CoordinationStatus;
  /**
   * Before a planned stop (Kubernetes preStop): claim nothing more and let go of every
   * organization between runs, so other replicas take them over at once, not after the TTL.
   */
  drain(timeoutMs: number): Promise<void>;
  /** Tell the other replicas that the source moved (a push webhook reaches one pod only). */
  announce(): Promise<void>;
  /** `/readyz`: the coordination session (etcd lease) is held. */
  session(): { ok: boolean; reason?: string };
  stop(): Promise<void>;
};

export type CoordinationObserver = {
  owned?(n: number): void;
  unowned?(n: number): void;
  renewFailed?(): void;
  /** A daemon replica gained an organization: sync it now. */
  gained?(orgs: string[]): void;
  /** Another replica announced a new revision of the source: fetch it now. */
  announced?(): void;
};
