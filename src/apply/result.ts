import type { Change } from '../model/index.js';

export type ChangeStatus = 'applied' | 'failed' | 'skipped';

export type ChangeResult = {
  id: string;
  kind: Change['kind'];
  action: Change['action'];
  address: string;
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
    r.address,
    r.message ?? '',
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
    `Apply: ${result.applied} applied, ${result.failed} failed, ${result.skipped} skipped in ${(result.durationMs / 1000).toFixed(1)}s.`,
  );
  return `${out.join('\n')}\n`;
}
