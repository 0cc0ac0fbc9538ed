import type { SyncWindowPolicy } from '../model/desired.js';
import { lastFired, parseCron } from './cron.js';

/**
 * Sync windows (`policy.syncWindows`), as Argo CD has them: a cron schedule and a duration open a
 * window; `deny` windows block apply while open, `allow` windows (when any exists) allow it only
 * while one is open; `manualSync: true` lets a manual sync through anyway. Drift is still checked
 * and reported whatever the windows say. Pure: the clock is a parameter.
 */
export type SyncWindow = SyncWindowPolicy;

/** One window, evaluated at an instant. */
export type WindowState = {
  kind: SyncWindow['kind'];
  schedule: string;
  duration: string;
  timeZone: string;
  manualSync: boolean;
  active: boolean;
  /** While active: when it opened and when it closes (ISO). */
  since?: string;
  until?: string;
};

/** What the windows say about applying now. */
export type WindowVerdict = {
  /** An automatic apply (a new revision, self-heal) may run. */
  apply: boolean;
  /** A manual sync (`docsync apply`, `POST /api/orgs/{org}/sync`) may run. */
  manual: boolean;
  /** Why apply (or also a manual sync) is blocked, in one line; absent when both may run. */
  reason?: string;
  windows: WindowState[];
};

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
/** The longest window: a year and a day (the walk back to the last start stays cheap). */
export const MAX_WINDOW_MS = 366 * 86_400_000;

/** `30m`, `1h`, `1h30m`, `2d`, `1w`: whole minutes, hours, days, weeks. Throws with the reason. */
export function parseWindowDuration(text: string): number {
  const parts = /^(?:\d+[mhdw])+$/.test(text) ? text.match(/\d+[mhdw]/g)! : null;
  if (!parts) throw new Error(`"${text}" is not a duration such as 30m, 1h, 1h30m, 2d or 1w`);
  const ms = parts.reduce((sum, p) => sum + Number(p.slice(0, -1)) * UNITS[p.slice(-1)]!, 0);
  if (ms < 60_000) throw new Error(`"${text}" is shorter than a minute`);
  if (ms > MAX_WINDOW_MS) throw new Error(`"${text}" is longer than 366 days`);
  return ms;
}

/** Each window at `now`: open or not, and since and until when. */
export function windowStates(windows: readonly SyncWindow[], now: number): WindowState[] {
  return windows.map((w) => {
    const started = lastFired(parseCron(w.schedule), w.timeZone, now, w.durationMs);
    const base = {
      kind: w.kind,
      schedule: w.schedule,
      duration: w.duration,
      timeZone: w.timeZone,
      manualSync: w.manualSync,
    };
    if (started === undefined) return { ...base, active: false };
    return {
      ...base,
      active: true,
      since: new Date(started).toISOString(),
      until: new Date(started + w.durationMs).toISOString(),
    };
  });
}

const label = (w: WindowState) => `${w.kind} window "${w.schedule}" (${w.duration}, ${w.timeZone})`;

/**
 * Argo CD's rule: an open deny window blocks (a manual sync passes only if every open deny window
 * has manualSync); else an open allow window allows; else, when allow windows exist, none is open
 * and apply is blocked (a manual sync passes if one of them has manualSync); no window: allowed.
 */
export function windowVerdict(windows: readonly SyncWindow[], now: number): WindowVerdict {
  const states = windowStates(windows, now);
  const denying = states.filter((w) => w.active && w.kind === 'deny');
  if (denying.length > 0) {
    const manual = denying.every((w) => w.manualSync);
    const until = denying.map((w) => w.until!).sort();
    return {
      apply: false,
      manual,
      reason: `${denying.map(label).join(', ')} open until ${until[until.length - 1]}${manual ? ' (a manual sync may run: manualSync)' : ''}`,
      windows: states,
    };
  }
  const allows = states.filter((w) => w.kind === 'allow');
  if (allows.length === 0 || allows.some((w) => w.active))
    return { apply: true, manual: true, windows: states };
  const manual = allows.some((w) => w.manualSync);
  return {
    apply: false,
    manual,
    reason: `outside every allow window (${allows.map(label).join(', ')})${manual ? ' (a manual sync may run: manualSync)' : ''}`,
    windows: states,
  };
}

/** Whether a sync of this kind may apply now, and if not, the line a run record shows. */
export function applyBlocked(verdict: WindowVerdict, manual: boolean): string | undefined {
  if (manual ? verdict.manual : verdict.apply) return undefined;
  return verdict.reason;
}

/**
 * Why a manual apply (`docsync apply`) of these organizations may not run now: their sync windows,
 * as a manual sync (each window's manualSync applies). Suspension is the daemon's: a person
 * applying by hand is not held by it.
 */
export function manualApplyBlocked(
  organizations: readonly { id: string; policy: { syncWindows?: SyncWindow[] } }[],
  orgs: readonly string[],
  now: number,
): string | undefined {
  const reasons = organizations
    .filter((o) => orgs.includes(o.id) && (o.policy.syncWindows?.length ?? 0) > 0)
    .flatMap((o) => {
      const why = applyBlocked(windowVerdict(o.policy.syncWindows!, now), true);
      return why === undefined ? [] : [`${o.id}: ${why}`];
    });
  return reasons.length > 0 ? `${reasons.join('; ')} (policy.syncWindows)` : undefined;
}
