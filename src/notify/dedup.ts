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
 * Deduplication for one provider, per organization and event type: an event whose fingerprint
 * equals the last one of its type seen for its organization is not sent again, until the
 * organization recovers (`recovered` forgets what was seen). So a self-heal that a guard refuses
 * at every check is one `drift` and one `refused`, not two messages per check; another drift is
 * news; and the same drift after a recovery is news again, even for a provider that does not take
 * `recovered` (a filtered event counts as seen). A failed delivery is not seen: the event is
 * tried again the next time it occurs. Unchanged drift is sent again after `reminderMs`
 * (`--reminder`).
 */
export class Dedup {
  private readonly last = new Map<string, Map<EventType, Seen>>();

  constructor(private readonly reminderMs: number = Number.POSITIVE_INFINITY) {}

  /** True when the event tells this provider nothing new. */
  duplicate(event: NotificationEvent, now: number): boolean {
    const seen = this.last.get(event.org)?.get(event.type);
    if (seen?.fingerprint !== event.fingerprint) return false;
    return !(event.type === 'drift' && now - seen.at >= this.reminderMs);
  }

  seen(event: NotificationEvent, now: number): void {
    let byType = this.last.get(event.org);
    if (!byType || event.type === 'recovered') this.last.set(event.org, (byType = new Map()));
    byType.set(event.type, { fingerprint: event.fingerprint, at: now });
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
