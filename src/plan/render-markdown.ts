import type { Change, LiveState } from '../reconcile/index.js';
import type { Plan } from './types.js';
import { changesByOrganization } from './by-organization.js';
import { fieldLines, resourceSummary, summaryLine, SYMBOL } from './format-value.js';
import { htmlText, mdCode, mdFence, mdText, oneLine } from './markdown-escape.js';
import { redactText } from '../model/redact.js';
import { refusalLine } from './safety.js';
import { renderNavigation } from './render-navigation.js';
import { changeProvenance, inheritedLines, provenanceWarning } from './provenance.js';
import { IGNORED_HEADING, REDIRECTS_HEADING } from './render-controls.js';
import { accessMarkdown, accessSummaryLine } from './render-access.js';

export const MARKDOWN_LIMIT = 60_000;

export type MarkdownOptions = {
  limit?: number;
  title?: string;
  artifactHint?: string;
  markOf?: (c: Change) => string | undefined;
  /** The live state the plan was made from: adds the site navigation now and after the plan. */
  live?: LiveState;
  /**
   * Preview links of the sites the plan changes (today's API, drafts included): checked https URLs
   * (src/pipeline/preview.ts), shown as autolinks.
   */
  previews?: { site: string; url: string }[];
};

/** A change in the `diff` block: every value on one line, so no data forges a line of the diff. */
function block(c: Change, mark: string | undefined, provenance: string[]): string {
  const lines = [`${SYMBOL[c.action]} ${c.kind} ${oneLine(c.address)}${mark ? `  [${oneLine(mark)}]` : ''}`];
  for (const l of fieldLines(c)) lines.push(`    ${oneLine(l)}`);
  if (c.note) lines.push(`    # ${oneLine(c.note)}`);
  for (const l of provenance) lines.push(`    # ${oneLine(l)}`);
  return lines.join('\n');
}

/** The fence a cut text leaves open (fences are docsync's lines: a line that starts with backticks). */
function openFence(text: string): string | undefined {
  let open: string | undefined;
  for (const line of text.split('\n')) {
    if (open !== undefined && line === open) open = undefined;
    else if (open === undefined) open = /^(`{3,})/.exec(line)?.[1];
  }
  return open;
}

/**
 * The comment's head: title, partial-plan note, errors, warnings, refusals, summary, previews and
 * the table of each organization's changes.
 */
function headLines(plan: Plan, options: MarkdownOptions, mineOf: ChangesOf): string[] {
  const head: string[] = [];
  head.push(`### ${options.title ?? 'docsync plan'}`);
  head.push('');
  if (plan.partial)
    head.push(
      `> **Partial plan:** only ${plan.partial.targets.map((t) => mdCode(`--target ${t}`)).join(', ')} and what they depend on; nothing else is planned, nor pruned.`,
      '',
    );
  if (plan.errors.length > 0) {
    for (const e of plan.errors) head.push(`> **Error** (${mdText(e.organization)}): ${mdText(e.message)}`);
    head.push('');
  }
  for (const w of plan.warnings ?? [])
    head.push(`> **Warning** (${mdText(w.organization)}): ${mdText(w.message)}`);
  const unattributed = provenanceWarning(plan);
  if (unattributed) head.push(`> **Warning:** ${mdText(unattributed)}`);
  if ((plan.warnings ?? []).length > 0 || unattributed) head.push('');
  for (const r of plan.refusals ?? [])
    head.push(`> **This plan will be refused:** ${mdText(refusalLine(r))}`);
  if ((plan.refusals ?? []).length > 0) head.push('');
  if (plan.changes.length === 0 && plan.errors.length > 0)
    head.push('**No changes can be planned** until the errors above are fixed.');
  else if (plan.changes.length === 0 && (plan.duplicates ?? []).length > 0)
    head.push('**No changes** for the rest. Resolve the duplicates above to manage them.');
  else if (plan.changes.length === 0) head.push('**No changes.** Live state matches the configuration.');
  else head.push(`**Plan:** ${summaryLine(resourceSummary(plan.changes))}.`);
  if ((plan.access ?? []).length > 0)
    head.push('', `**Effective access:** ${accessSummaryLine(plan.access ?? [])} (details below).`);
  head.push('');
  if (options.previews && options.previews.length > 0) {
    head.push(
      '**Preview** of the sites this plan changes, drafts included (each link expires after an hour):',
    );
    head.push('');
    for (const p of options.previews) head.push(`- ${mdText(p.site)}: <${p.url}>`);
    head.push('');
  }
  head.push('| organization | create | update | delete | move |');
  head.push('|---|---:|---:|---:|---:|');
  for (const org of plan.organizations) {
    const n = resourceSummary(mineOf(org));
    head.push(`| ${mdCode(org, { table: true })} | ${n.create} | ${n.update} | ${n.delete} | ${n.move} |`);
  }
  head.push('');
  return head;
}

/**
 * The comment's details: each organization's changes, effective access, redirects, ignored,
 * unmanaged and inherited entries.
 */
function detailBlocks(plan: Plan, options: MarkdownOptions, mineOf: ChangesOf): string[] {
  const sections: string[] = [];
  for (const org of plan.organizations) {
    const mine = mineOf(org);
    if (mine.length === 0) continue;
    sections.push(
      `<details><summary>${htmlText(org)}: ${mine.length} change(s)</summary>\n\n${mdFence(mine.map((c) => block(c, options.markOf?.(c), changeProvenance(plan, c))).join('\n'), 'diff')}\n\n</details>\n`,
    );
  }
  const access = accessMarkdown(plan);
  if (access) sections.push(access);
  const redirects = plan.redirects ?? [];
  if (redirects.length > 0)
    sections.push(
      `**${htmlText(REDIRECTS_HEADING)}**\n\n${redirects.map((r) => `- ${mdText(`site "${r.site}":`)} ${mdCode(r.source)} → ${mdCode(r.destination)} (${mdText(r.reason)})`).join('\n')}\n`,
    );
  const ignored = plan.ignored ?? [];
  if (ignored.length > 0)
    sections.push(
      `<details><summary>${htmlText(IGNORED_HEADING)} ${ignored.length} resource(s)</summary>\n\n${ignored.map((i) => `- ${mdCode(i.kind)} ${mdCode(i.address)}: ${mdText(i.fields.join(', '))} (${mdText(i.rules.join(', '))})`).join('\n')}\n\n</details>\n`,
    );
  if (plan.unmanaged.length > 0)
    sections.push(
      `<details><summary>Unmanaged: ${plan.unmanaged.length} live resource(s) not in the configuration</summary>\n\n${plan.unmanaged.map((u) => `- ${mdCode(u.kind)} ${mdCode(u.address)}${u.reason ? ` (${mdText(u.reason)})` : ''}`).join('\n')}\n\n</details>\n`,
    );
  const inherited = inheritedLines(plan);
  if (inherited.length > 0)
    sections.push(
      `<details><summary>From base files (extends): ${inherited.length} entr${inherited.length === 1 ? 'y' : 'ies'}</summary>\n\n${inherited.map((l) => `- ${mdText(l)}`).join('\n')}\n\n</details>\n`,
    );
  return sections;
}

type ChangesOf = ReturnType<typeof changesByOrganization>;

/** Markdown for pull-request comments: summary first, details collapsed, capped in size. */
export function renderMarkdown(plan: Plan, options: MarkdownOptions = {}): string {
  const limit = options.limit ?? MARKDOWN_LIMIT;
  // Each organization's changes, grouped once for the summary table and the details.
  const mineOf = changesByOrganization(plan.changes, plan.organizations);
  const head = headLines(plan, options, mineOf);
  const sections = detailBlocks(plan, options, mineOf);
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
    const kept = cut.slice(0, cut.lastIndexOf('\n'));
    const fence = openFence(kept);
    // Only docsync's own lines start with `<details>` or are `</details>` (data never starts a line).
    const openDetails =
      (kept.match(/^<details>/gm) ?? []).length > (kept.match(/^<\/details>$/gm) ?? []).length;
    text = `${kept}${fence ? `\n${fence}` : ''}${openDetails ? '\n</details>' : ''}${note}`;
  }
  return text;
}
