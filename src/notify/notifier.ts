import { sendOutbound, type OutboundPolicy } from '../api/outbound.js';
import type { Logger } from '../log/logger.js';
import { Dedup, verdict } from './dedup.js';
import { deriveEvents, type Condition, type NotificationEvent, type Observation } from './events.js';
import type { NotificationProvider } from './provider.js';
import { RENDERERS } from './providers/index.js';

/** Tests shorten the policy's deadline and backoff. */
export const notifyPolicy: OutboundPolicy = { timeoutMs: 20_000 };

export type NotifierOptions = {
  logger: Logger;
  /** Unchanged drift is sent again after this long (`--reminder`). */
  reminderMs?: number;
  now?: () => number;
};

/**
 * Render an event for a provider and send it through `sendOutbound` (bounded, retried, the
 * provider's URL and secret kept out of every error). False when the provider has nothing to send
 * for it (a commit status without a commit).
 */
export async function sendEvent(provider: NotificationProvider, event: NotificationEvent): Promise<boolean> {
  const request = RENDERERS[provider.type](provider, event);
  if (!request) return false;
  const secrets = [provider.type === 'github' ? undefined : provider.address, provider.secret];
  await sendOutbound(request, { ...notifyPolicy, secrets: secrets.filter((s) => s !== undefined) });
  return true;
}

type Lane = { provider: NotificationProvider; dedup: Dedup; tail: Promise<unknown> };

/**
 * The daemon's notifications: each observation of a run becomes events (src/notify/events.ts),
 * and each provider gets those it takes, once per state, in the order they happened (one lane
 * per provider: a slow webhook delays only its own messages). Every call goes through
 * `sendOutbound` (bounded, retried, secrets kept out of errors); a failed delivery is logged and
 * never fails the run.
 */
export class Notifier {
  private readonly conditions = new Map<string, Condition>();
  private readonly lanes: Lane[];

  constructor(
    providers: readonly NotificationProvider[],
    private readonly opts: NotifierOptions,
  ) {
    this.lanes = providers.map((provider) => ({
      provider,
      dedup: new Dedup(opts.reminderMs),
      tail: Promise.resolve(),
    }));
  }

  /**
   * Record what a run found about an organization and tell the providers. Resolves once every
   * provider has dealt with its events: true when at least one message was delivered.
   */
  async observe(observation: Observation): Promise<boolean> {
    const prev = this.conditions.get(observation.org);
    const { events, next } = deriveEvents(prev, observation);
    if (next === undefined) this.conditions.delete(observation.org);
    else this.conditions.set(observation.org, next);
    if (events.length === 0 || this.lanes.length === 0) return false;
    const sent = await Promise.all(this.lanes.map((lane) => this.enqueue(lane, events)));
    return sent.some(Boolean);
  }

  /** Every delivery queued so far has ended (tests, and a graceful stop). */
  async idle(): Promise<void> {
    await Promise.all(this.lanes.map((lane) => lane.tail));
  }

  private enqueue(lane: Lane, events: readonly NotificationEvent[]): Promise<boolean> {
    // Never rejects: a sync's notification is not awaited, and nothing here may fail a run.
    const run = lane.tail
      .then(async () => {
        let sent = false;
        for (const event of events) sent = (await this.deliver(lane, event)) || sent;
        return sent;
      })
      .catch((error: unknown) => {
        this.opts.logger.warn(
          { provider: lane.provider.name, err: (error as Error).message },
          'notification failed',
        );
        return false;
      });
    lane.tail = run;
    return run;
  }

  private async deliver(lane: Lane, event: NotificationEvent): Promise<boolean> {
    const now = (this.opts.now ?? Date.now)();
    const { provider } = lane;
    const fields = { provider: provider.name, event: event.type, org: event.org };
    if (verdict(provider, lane.dedup, event, now) !== 'send') return false;
    try {
      const sent = await sendEvent(provider, event);
      lane.dedup.seen(event, now);
      if (sent) this.opts.logger.info(fields, 'notification sent');
      return sent;
    } catch (error) {
      this.opts.logger.warn({ ...fields, err: (error as Error).message }, 'notification failed');
      return false;
    }
  }
}
