import type { EventType, NotificationEvent, Severity } from './events.js';

/** What a provider takes (Flux's Alert): a severity floor, event types and, optionally, organizations. */
export type EventFilter = {
  severity: Severity;
  events: readonly EventType[];
  /** Only these organizations; all when absent. */
  orgs?: readonly string[];
};

export function accepts(filter: EventFilter, event: NotificationEvent): boolean {
  if (filter.severity === 'error' && event.severity !== 'error') return false;
  if (!filter.events.includes(event.type)) return false;
  return filter.orgs === undefined || filter.orgs.includes(event.org);
}

type Seen = { fingerprint: string; at: number };

/**
 * Deduplication for one provider, per organization: an event whose fingerprint equals the last
 * state seen for its organization is not sent again. Every event counts as "seen" once it was
 * delivered or filtered out, so a state that changed and came back (drift, recovered, the same
 * drift) is sent again, even to a provider that does not take `recovered`. A failed delivery is
 * not seen: the same event is tried again the next time it occurs. Unchanged drift is sent again
 * after `reminderMs` (`--reminder`).
 */
export class Dedup {
  private readonly last = new Map<string, Seen>();

  constructor(private readonly reminderMs: number = Number.POSITIVE_INFINITY) {}

  /** True when the event tells this provider nothing new. */
  duplicate(event: NotificationEvent, now: number): boolean {
    const seen = this.last.get(event.org);
    if (seen?.fingerprint !== event.fingerprint) return false;
    return !(event.type === 'drift' && now - seen.at >= this.reminderMs);
  }

  seen(event: NotificationEvent, now: number): void {
    this.last.set(event.org, { fingerprint: event.fingerprint, at: now });
  }
}

export type Verdict = 'send' | 'filtered' | 'duplicate';

/** Whether to send an event to a provider; a filtered event is recorded as seen at once. */
export function verdict(filter: EventFilter, dedup: Dedup, event: NotificationEvent, now: number): Verdict {
  if (!accepts(filter, event)) {
    dedup.seen(event, now);
    return 'filtered';
  }
  return dedup.duplicate(event, now) ? 'duplicate' : 'send';
}
