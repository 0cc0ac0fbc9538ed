import type { Change, LiveState } from '../model/index.js';
import type { Plan } from './types.js';
import { fieldLines, resourceSummary, summaryLine, SYMBOL } from './format-value.js';
import { redactText } from './redact.js';
import { refusalLine } from './safety.js';
import { renderNavigation } from './render-navigation.js';

export const MARKDOWN_LIMIT = 60_000;

export type MarkdownOptions = {
  limit?: number;
  title?: string;
  artifactHint?: string;
  markOf?: (c: Change) => string | undefined;
  /** The live state the plan was made from: adds the site navigation now and after the plan. */
  live?: LiveState;
};

function block(c: Change, mark?: string): string {
  const lines = [`${SYMBOL[c.action]} ${c.kind} ${c.address}${mark ? `  [${mark}]` : ''}`];
  for (const l of fieldLines(c)) lines.push(`    ${l}`);
  if (c.note) lines.push(`    # ${c.note}`);
  return lines.join('\n');
}

/** Markdown for pull-request comments: summary first, details collapsed, capped in size. */
export function renderMarkdown(plan: Plan, options: MarkdownOptions = {}): string {
  const limit = options.limit ?? MARKDOWN_LIMIT;
  const head: string[] = [];
  head.push(`### ${options.title ?? 'docsync plan'}`);
  head.push('');
  if (plan.errors.length > 0) {
    for (const e of plan.errors) head.push(`> **Error** (${e.organization}): ${e.message}`);
    head.push('');
  }
  for (const w of plan.warnings ?? []) head.push(`> **Warning** (${w.organization}): ${w.message}`);
  if ((plan.warnings ?? []).length > 0) head.push('');
  for (const r of plan.refusals ?? []) head.push(`> **This plan will be refused:** ${refusalLine(r)}`);
  if ((plan.refusals ?? []).length > 0) head.push('');
  if (plan.changes.length === 0 && plan.errors.length > 0)
    head.push('**No changes can be planned** until the errors above are fixed.');
  else if (plan.changes.length === 0 && (plan.duplicates ?? []).length > 0)
    head.push('**No changes** for the rest. Resolve the duplicates above to manage them.');
  else if (plan.changes.length === 0) head.push('**No changes.** Live state matches the configuration.');
  else head.push(`**Plan:** ${summaryLine(resourceSummary(plan.changes))}.`);
  head.push('');
  head.push('| organization | create | update | delete | move |');
  head.push('|---|---:|---:|---:|---:|');
  for (const org of plan.organizations) {
    const mine = plan.changes.filter((c) => c.address.startsWith(`${org}/`));
    const n = resourceSummary(mine);
    head.push(`| \`${org}\` | ${n.create} | ${n.update} | ${n.delete} | ${n.move} |`);
  }
  head.push('');
  const sections: string[] = [];
  for (const org of plan.organizations) {
    const mine = plan.changes.filter((c) => c.address.startsWith(`${org}/`));
    if (mine.length === 0) continue;
    sections.push(
      `<details><summary>${org}: ${mine.length} change(s)</summary>\n\n\`\`\`diff\n${mine.map((c) => block(c, options.markOf?.(c))).join('\n')}\n\`\`\`\n\n</details>\n`,
    );
  }
  if (plan.unmanaged.length > 0)
    sections.push(
      `<details><summary>Unmanaged: ${plan.unmanaged.length} live resource(s) not in the configuration</summary>\n\n${plan.unmanaged.map((u) => `- \`${u.kind}\` ${u.address}${u.reason ? ` (${u.reason})` : ''}`).join('\n')}\n\n</details>\n`,
    );
  const headText = redactText(head.join('\n'));
  const rest = redactText(sections.join('\n'));
  let text = `${headText}${rest}`;
  const navigation = options.live
    ? redactText(renderNavigation(plan.organizations, options.live, plan.changes))
    : '';
  // The navigation goes before the details when the whole comment stays within the cap.
  if (navigation && headText.length + navigation.length + 1 + rest.length <= limit)
    text = `${headText}${navigation}\n${rest}`;
  else if (navigation) text += '\n> Site navigation left out: the comment would pass its size cap.\n';
  if (text.length > limit) {
    const note = `\n\n> **Output cut** at ${limit} characters.${options.artifactHint ? ` ${options.artifactHint}` : ' Run `docsync plan` for the full plan.'}\n`;
    const cut = text.slice(0, limit - note.length - 20);
    const openFence = (cut.match(/```/g) ?? []).length % 2 === 1;
    const openDetails = (cut.match(/<details>/g) ?? []).length > (cut.match(/<\/details>/g) ?? []).length;
    text = `${cut.slice(0, cut.lastIndexOf('\n'))}${openFence ? '\n```' : ''}${openDetails ? '\n</details>' : ''}${note}`;
  }
  return text;
}
