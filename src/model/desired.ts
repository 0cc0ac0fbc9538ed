/** An organization's policy: what a plan may delete (config key `policy`). */
export type Policy = {
  prune: boolean;
  maxDeletes: number;
  /** Remove organization members the config omits (never through `prune`); default false. */
  pruneMembers?: boolean;
  /** A plan that leaves fewer admins is refused; default 1 (`DEFAULT_MIN_ADMINS`). */
  minAdmins?: number;
  /** When the daemon may apply (src/policy/sync-windows.ts); absent: any time. */
  syncWindows?: SyncWindowPolicy[];
};

/** `policy.syncWindows[]`, normalized: the time zone defaults to UTC, the duration is also in ms. */
export type SyncWindowPolicy = {
  kind: 'allow' | 'deny';
  schedule: string;
  duration: string;
  durationMs: number;
  manualSync: boolean;
  timeZone: string;
};

export const DEFAULT_MIN_ADMINS = 1;

/** `id` pins a live resource; `previously` lists earlier names (a rename without an id lookup). */
export type Renamable = { id?: string; previously?: string[] };

/** Where a certificate comes from; its content is never part of the desired state, only its hash. */
export type CertificateRef =
  { source: 'file'; path: string; sha256: string } | { source: 'env'; name: string; sha256: string };
