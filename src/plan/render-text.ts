import type { Plan } from './types.js';
import { oneLine } from './markdown-escape.js';
import { fieldLines, resourceSummary, summaryLine, SYMBOL } from './format-value.js';
import { redactText } from '../model/redact.js';
import { refusalLine } from './safety.js';
import { changeProvenance, inheritedLines, provenanceWarning } from './provenance.js';
import {
  IGNORED_HEADING,
  REDIRECTS_HEADING,
  ignoredLine,
  partialLine,
  redirectLine,
} from './render-controls.js';
import { accessTextLines } from './render-access.js';

export type TextOptions = { color?: boolean; title?: string };

const COLORS = { create: '\x1b[32m', update: '\x1b[33m', delete: '\x1b[31m', move: '\x1b[36m' } as const;
const DIM = '\x1b[2m';
const PRUNE_OFF = 'policy.prune is false';
const RESET = '\x1b[0m';

/**
 * Terraform-like text: one block per change, `+ ~ - ↕`, colour only when asked. Every data string
 * passes `oneLine`: no line break or control character from a title reaches a log or a terminal.
 */
export function renderText(plan: Plan, options: TextOptions = {}): string {
  const paint = (code: string, text: string) => (options.color ? `${code}${text}${RESET}` : text);
  const out: string[] = [];
  out.push(oneLine(options.title ?? `docsync plan for ${plan.organizations.join(', ')}`));
  out.push('');
  const partial = partialLine(plan);
  if (partial) out.push(paint(COLORS.move, oneLine(partial)), '');
  for (const e of plan.errors)
    out.push(paint(COLORS.delete, `error: ${oneLine(e.message)} [${oneLine(e.code)}]`));
  for (const w of plan.warnings ?? []) out.push(paint(COLORS.update, `warning: ${oneLine(w.message)}`));
  const unattributed = provenanceWarning(plan);
  if (unattributed) out.push(paint(COLORS.update, `warning: ${oneLine(unattributed)}`));
  for (const r of plan.refusals ?? [])
    out.push(
      paint(COLORS.delete, `This plan will be refused: ${oneLine(refusalLine(r))} [${oneLine(r.code)}]`),
    );
  if (
    plan.errors.length > 0 ||
    (plan.warnings ?? []).length > 0 ||
    (plan.refusals ?? []).length > 0 ||
    unattributed
  )
    out.push('');
  if (plan.changes.length === 0)
    out.push(
      plan.errors.length > 0
        ? 'No changes can be planned until the errors above are fixed.'
        : (plan.duplicates ?? []).length > 0
          ? 'No changes for the rest. Resolve the duplicates above to manage them.'
          : 'No changes. Live state matches the configuration.',
    );
  for (const c of plan.changes) {
    out.push(
      `${paint(COLORS[c.action], `${SYMBOL[c.action]} ${oneLine(c.kind)}`)} ${oneLine(c.address)} ${paint(DIM, `(${oneLine(c.id)}${c.dependsOn.length ? ` after ${oneLine(c.dependsOn.join(', '))}` : ''})`)}`,
    );
    for (const line of fieldLines(c)) out.push(`    ${oneLine(line)}`);
    if (c.note) out.push(paint(DIM, `    # ${oneLine(c.note)}`));
    for (const line of changeProvenance(plan, c)) out.push(paint(DIM, `    # ${oneLine(line)}`));
  }
  const access = accessTextLines(plan);
  if (access.length > 0) out.push('', ...access);
  if ((plan.redirects ?? []).length > 0) {
    out.push('', REDIRECTS_HEADING);
    for (const r of plan.redirects ?? []) out.push(`  + ${oneLine(redirectLine(r))}`);
  }
  if ((plan.ignored ?? []).length > 0) {
    out.push('', IGNORED_HEADING);
    for (const i of plan.ignored ?? []) out.push(`  ~ ${oneLine(ignoredLine(i))}`);
  }
  // Grouped by why each is left alone: the words say the truth whatever policy.prune is.
  const reasons = [...new Set(plan.unmanaged.map((u) => u.reason ?? PRUNE_OFF))];
  for (const reason of reasons) {
    out.push('');
    out.push(`Unmanaged (live, not in the configuration; left alone because ${oneLine(reason)}):`);
    for (const u of plan.unmanaged)
      if ((u.reason ?? PRUNE_OFF) === reason) out.push(`  ? ${oneLine(u.kind)} ${oneLine(u.address)}`);
  }
  const inherited = inheritedLines(plan);
  if (inherited.length > 0) {
    out.push('');
    out.push('From base files (extends):');
    for (const line of inherited) out.push(`  ${oneLine(line)}`);
  }
  // After a failed read there is nothing to count: the errors are the whole story.
  if (plan.changes.length > 0 || plan.errors.length === 0) {
    out.push('');
    out.push(`Plan: ${summaryLine(resourceSummary(plan.changes))}.`);
  }
  return `${redactText(out.join('\n'))}\n`;
}
