import { createHash } from 'node:crypto';
import { summaryLine } from '../plan/format-value.js';
import type { PlanSummary } from '../plan/types.js';

/**
 * The notification event model (decision 29), pure: what a daemon run observed about one
 * organization becomes zero or more events, given what the organization's condition was before.
 * Renderers (one module per provider type) turn an event into a message; texts here are plain
 * text, escaped by the renderer for its format.
 */
export const EVENT_TYPES = [
  'applied',
  'apply-failed',
  'refused',
  'drift',
  'drift-error',
  'recovered',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Flux's two severities: a provider at `error` receives only error events; at `info`, all. */
export const SEVERITIES = ['info', 'error'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** A change of an event; `changedBy`: who last changed the drifted resource (the audit log). */
export type ChangeRef = { action: string; kind: string; address: string; changedBy?: string };

/** Structured facts of an event, for the JSON bodies (Slack's fields, the generic webhook). */
export type EventDetails = {
  counts?: PlanSummary;
  checksum?: string;
  changes?: ChangeRef[];
  applied?: number;
  failed?: number;
  error?: string;
  code?: string;
};

export type NotificationEvent = {
  type: EventType;
  severity: Severity;
  org: string;
  /** The config repository's commit the run used (git sources only). */
  commit?: string;
  /** One line of plain text. */
  summary: string;
  /** More plain text (the error, what changed); may be empty. */
  message: string;
  /** The same state has the same fingerprint: a provider is not told it twice in a row. */
  fingerprint: string;
  details: EventDetails;
};

/** What a daemon run found out about one organization (src/daemon/notify.ts derives it). */
export type Observation = { org: string; commit?: string } & (
  | { kind: 'applied'; runId: string; counts?: PlanSummary; applied: number }
  | {
      kind: 'apply-failed';
      counts?: PlanSummary;
      error: string;
      code: string;
      applied?: number;
      failed?: number;
    }
  | { kind: 'refused'; counts?: PlanSummary; reason: string }
  /** A sync that found nothing to do, or a drift check that found live state as configured. */
  | { kind: 'in-sync' }
  /** Plan mode: changes wait to be applied; the organization could be read and planned. */
  | { kind: 'planned' }
  | {
      kind: 'drift';
      checksum: string;
      counts: PlanSummary;
      changes: ChangeRef[];
      healing: boolean;
      /** Who changed the drifted resources, in one line (src/plan/attribution.ts `whoChanged`). */
      who?: string;
    }
  | { kind: 'drift-error'; error: string; code: string }
);

/** Where an organization stands, as far as notifications care: `recovered` leaves drifted or failing. */
export type Condition = 'ok' | 'drifted' | 'failing';

const MAX_CHANGES = 50;

/** A short, stable digest of the state an event describes (never its text: it may hold data). */
export function fingerprintOf(...parts: readonly (string | undefined)[]): string {
  return createHash('sha256')
    .update(parts.map((p) => p ?? '').join('\u0000'))
    .digest('hex')
    .slice(0, 16);
}

type Base = Pick<NotificationEvent, 'org' | 'commit'>;

function event(
  base: Base,
  type: EventType,
  severity: Severity,
  text: { summary: string; message?: string },
  key: readonly (string | undefined)[],
  details: EventDetails = {},
): NotificationEvent {
  return {
    type,
    severity,
    ...base,
    summary: text.summary,
    message: text.message ?? '',
    fingerprint: fingerprintOf(type, base.org, ...key),
    details,
  };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The event an observation is by itself (recovered aside), and the condition it leaves. */
function own(base: Base, o: Observation): { event?: NotificationEvent; next?: Condition } {
  switch (o.kind) {
    case 'applied':
      return { next: 'ok', event: appliedEvent(base, o) };
    case 'apply-failed':
      return { next: 'failing', event: applyFailedEvent(base, o) };
    case 'refused':
      return { next: 'failing', event: refusedEvent(base, o) };
    case 'drift':
      return { next: 'drifted', event: driftEvent(base, o) };
    case 'drift-error':
      return { next: 'failing', event: driftErrorEvent(base, o) };
    case 'in-sync':
      return { next: 'ok' };
    case 'planned':
      return {};
  }
}

type Seen<K extends Observation['kind']> = Extract<Observation, { kind: K }>;

function appliedEvent(base: Base, o: Seen<'applied'>): NotificationEvent {
  return event(
    base,
    'applied',
    'info',
    {
      summary: `docsync applied ${plural(o.applied, 'change')} to ${o.org}`,
      ...(o.counts ? { message: summaryLine(o.counts) } : {}),
    },
    [o.runId],
    { applied: o.applied, ...(o.counts ? { counts: o.counts } : {}) },
  );
}

function applyFailedEvent(base: Base, o: Seen<'apply-failed'>): NotificationEvent {
  return event(
    base,
    'apply-failed',
    'error',
    { summary: `docsync could not sync ${o.org}`, message: o.error },
    [base.commit, o.code, o.error],
    {
      error: o.error,
      code: o.code,
      ...(o.counts ? { counts: o.counts } : {}),
      ...(o.applied !== undefined ? { applied: o.applied } : {}),
      ...(o.failed !== undefined ? { failed: o.failed } : {}),
    },
  );
}

function refusedEvent(base: Base, o: Seen<'refused'>): NotificationEvent {
  return event(
    base,
    'refused',
    'error',
    { summary: `docsync refused to apply the plan for ${o.org}`, message: o.reason },
    [base.commit, o.reason],
    { error: o.reason, ...(o.counts ? { counts: o.counts } : {}) },
  );
}

function driftEvent(base: Base, o: Seen<'drift'>): NotificationEvent {
  return event(
    base,
    'drift',
    // Drift the daemon corrects by itself needs no one; drift it only reports does.
    o.healing ? 'info' : 'error',
    {
      summary: `docsync drift: live state differs from the configuration: ${summaryLine(o.counts)}`,
      message: [o.who ? `changed by ${o.who}` : '', o.healing ? 'self-heal will apply the plan' : '']
        .filter((m) => m.length > 0)
        .join('; '),
    },
    [o.checksum],
    { counts: o.counts, checksum: o.checksum, changes: o.changes.slice(0, MAX_CHANGES) },
  );
}

function driftErrorEvent(base: Base, o: Seen<'drift-error'>): NotificationEvent {
  return event(
    base,
    'drift-error',
    'error',
    {
      summary: 'docsync drift check failed: live state could not be read, drift is unknown',
      message: o.error,
    },
    [o.code, o.error],
    { error: o.error, code: o.code },
  );
}

const RECOVERED_WHY: Record<Observation['kind'], string> = {
  applied: 'the configuration was applied',
  'in-sync': 'live state matches the configuration',
  planned: 'it can be read and planned again',
  'apply-failed': '',
  refused: '',
  drift: '',
  'drift-error': '',
};

/**
 * The events of one observation, in order, and the organization's condition after it. A run that
 * ends a failure or a drift adds `recovered` (once: the condition is then `ok`). In plan mode a
 * successful plan ends a failure, but not a drift (the changes are still not applied).
 */
export function deriveEvents(
  prev: Condition | undefined,
  o: Observation,
): { events: NotificationEvent[]; next: Condition | undefined } {
  const base: Base = { org: o.org, ...(o.commit ? { commit: o.commit } : {}) };
  const mine = own(base, o);
  let next = mine.next ?? prev;
  if (o.kind === 'planned' && prev === 'failing') next = 'ok';
  const events = mine.event ? [mine.event] : [];
  if (next === 'ok' && (prev === 'drifted' || prev === 'failing'))
    events.push(
      event(
        base,
        'recovered',
        'info',
        {
          summary: `docsync recovered: ${o.org}: ${RECOVERED_WHY[o.kind]}`,
          message: prev === 'drifted' ? 'after drift' : 'after an error',
        },
        [prev, base.commit],
      ),
    );
  return { events, next };
}
