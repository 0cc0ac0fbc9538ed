import type { Change } from '../reconcile/index.js';
import { resourceSummary } from '../plan/format-value.js';
import { oneLine } from '../plan/markdown-escape.js';

export type ChangeStatus = 'applied' | 'failed' | 'skipped';

export type ChangeResult = {
  id: string;
  kind: Change['kind'];
  action: Change['action'];
  address: string;
  /** The change's note: a "set after creation" update counts with its creation (resourceSummary). */
  note?: string;
  status: ChangeStatus;
  durationMs: number;
  /** The object already existed after an ambiguous failure, and was adopted instead of created twice. */
  adopted?: boolean;
  /** The API's message (failed) or why the change did not run (skipped). */
  message?: string;
  code?: string;
};

/** Per-change outcome of an apply. `ok` is false when anything failed or was skipped. */
export type ApplyResult = {
  results: ChangeResult[];
  applied: number;
  failed: number;
  skipped: number;
  ok: boolean;
  durationMs: number;
};

export function renderResultTable(result: ApplyResult): string {
  if (result.results.length === 0) return 'Nothing to apply.\n';
  const rows = result.results.map((r) => [
    r.id,
    r.status + (r.adopted ? ' (adopted)' : ''),
    `${r.action} ${r.kind}`,
    // Data (live titles, API messages) on one line, control characters shown: no forged line.
    oneLine(r.address),
    oneLine(r.message ?? ''),
  ]);
  const header = ['change', 'status', 'action', 'address', 'detail'];
  const widths = header.map((h, i) => Math.min(60, Math.max(h.length, ...rows.map((row) => row[i]!.length))));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  const out = [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
  out.push('');
  out.push(
    `Apply: ${resourceLine(result.results)} in ${result.results.length} calls: ${result.applied} applied, ${result.failed} failed, ${result.skipped} skipped in ${(result.durationMs / 1000).toFixed(1)}s.`,
  );
  return `${out.join('\n')}\n`;
}

const DONE: Record<Change['action'], string> = {
  create: 'created',
  update: 'updated',
  delete: 'deleted',
  move: 'moved',
};

/**
 * Resources changed, counted as the plan counts them: a creation and its "set after creation"
 * update on the same address are one resource created (issue 16 point 6).
 */
export function resourceLine(results: readonly ChangeResult[]): string {
  const counts = resourceSummary(results.filter((r) => r.status === 'applied'));
  const total = counts.create + counts.update + counts.delete + counts.move;
  const parts = (Object.keys(counts) as Change['action'][])
    .filter((a) => counts[a] > 0)
    .map((a) => `${counts[a]} ${DONE[a]}`);
  return `${total} ${total === 1 ? 'resource' : 'resources'}${parts.length ? ` (${parts.join(', ')})` : ''}`;
}
