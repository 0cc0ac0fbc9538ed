import type { ApiClient } from '../api/client.js';
import type { ApiError } from '../api/errors.js';
import type { WriteGate } from '../api/write-gate.js';
import type { Logger } from '../log/logger.js';
import { DocsyncError } from '../errors.js';
import type { ChangeOp } from '../reconcile/index.js';
import { findCreated } from './adopt.js';
import type { OpOutput } from './execute-op.js';
import type { Produced } from './resolve.js';

/** Beyond its own deadline, how long the platform may still act on a request the client gave up on. */
export const SETTLE_MARGIN_MS = 1000;
/** The first look for the creation; each later look waits twice as long as the one before. */
const FIRST_LOOK_MS = 250;
/** How often a wait checks whether it should end early (gate closed, stop). */
const TICK_MS = 100;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * How long, from `now`, an ambiguous creation may still land: a timed-out request until its own
 * deadline (its start plus the time it had, which a write gate may have cut short) plus a margin,
 * so a request that used its whole deadline is waited for the margin only; a reset connection
 * briefly. Without a known deadline (an error made elsewhere), the whole timeout again.
 */
export function settleMs(api: ApiClient, error: ApiError, now = performance.now()): number {
  if (error.code !== 'timeout') return FIRST_LOOK_MS;
  if (error.deadlineAt !== undefined) return Math.max(0, error.deadlineAt - now) + SETTLE_MARGIN_MS;
  return (error.deadlineMs ?? api.http.timeoutMs) + SETTLE_MARGIN_MS;
}

/** What ends a settle wait early: the organization's write gate closed, or a graceful stop began. */
export type SettleWatch = {
  gate?: WriteGate | undefined;
  shouldStop?: (() => boolean) | undefined;
  logger?: Logger | undefined;
};

function interruption(watch: SettleWatch): string | undefined {
  if (watch.shouldStop?.()) return 'the daemon is stopping';
  if (watch.gate && watch.gate.remainingMs() <= 0) return watch.gate.label;
  return undefined;
}

/**
 * After an ambiguous creation, wait for it to land, looking for it meanwhile (at 250 ms, then at
 * doubling intervals, and once more at the end): its ids as soon as it is found, null when it has
 * not appeared by the end (it can be sent again). Throws `outcome-unknown` when the gate closes or
 * a stop begins during the wait: then the outcome stays unknown, and whoever syncs the
 * organization next re-plans from live state (creations adopt what exists).
 */
export async function settleCreation(
  api: ApiClient,
  op: ChangeOp,
  produced: Produced,
  error: ApiError,
  watch: SettleWatch,
): Promise<OpOutput | null> {
  const waitMs = settleMs(api, error);
  const end = performance.now() + waitMs;
  watch.logger?.info({ code: error.code, waitMs }, 'creation outcome unknown; waiting for it to settle');
  let step = FIRST_LOOK_MS;
  let nextLook = Math.min(end, performance.now() + step);
  for (;;) {
    const why = interruption(watch);
    if (why !== undefined)
      throw new DocsyncError(
        'outcome-unknown',
        `${error.message}; its outcome is unknown: stopped waiting for it because ${why} (the next sync re-plans from live state)`,
      );
    const now = performance.now();
    if (now >= nextLook) {
      const found = await findCreated(api, op, produced);
      if (found || now >= end) return found;
      step *= 2;
      nextLook = Math.min(end, performance.now() + step);
    }
    await sleep(Math.max(1, Math.min(TICK_MS, nextLook - performance.now())));
  }
}
