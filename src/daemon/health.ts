/**
 * What `/readyz` means: the daemon finished its first run AND its last attempt to read live state
 * (a sync or a drift check) succeeded. A daemon that cannot read the API (down, token revoked)
 * cannot converge or see drift, so it is not ready; `/status` carries the reason, `/healthz`
 * stays 200 (the process itself is fine; restarting it would not help).
 *
 * `/readyz` is open on every address, so its reason is generic: never an API, git or etcd error
 * text (those hold hosts, paths and account names); the detail is on the guarded `/status`.
 */
export type LiveRead = { ok: boolean; at: string; error?: string };

export type Readiness = { ready: boolean; reason?: string };

export function readiness(
  firstRunDone: boolean,
  liveRead: LiveRead | null,
  session: { ok: boolean; reason?: string } = { ok: true },
): Readiness {
  // The coordination session (etcd lease): without it this replica writes nothing (decision 21).
  if (!session.ok)
    return { ready: false, reason: 'no coordination session (the etcd lease is not held; see /status)' };
  if (!firstRunDone) return { ready: false, reason: 'the first sync has not finished' };
  if (liveRead && !liveRead.ok) return { ready: false, reason: 'live state cannot be read (see /status)' };
  return { ready: true };
}
