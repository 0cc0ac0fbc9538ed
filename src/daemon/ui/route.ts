import { redact } from '../../log/logger.js';
import type { Daemon } from '../daemon.js';
import type { RunJournal } from '../runs/journal.js';
import { renderStatusPage } from './status-page.js';

/** Runs shown on the page (the rest is in `GET /api/runs`). */
const PAGE_RUNS = 20;

/** The page may load nothing: no script, no remote style, no frame, no form. */
const HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

/** `GET /`: the status page, with every registered secret redacted as a last line of defence. */
export function statusPage(
  daemon: Daemon,
  journal: RunJournal,
  refreshSeconds = 10,
): { headers: Record<string, string>; body: string } {
  const body = renderStatusPage({
    status: daemon.status,
    ready: daemon.ready,
    pending: journal.pending,
    runs: journal.store.list(PAGE_RUNS).runs,
    now: new Date(),
    refreshSeconds,
  });
  return { headers: HEADERS, body: redact(body) };
}
