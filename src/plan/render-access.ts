import { accessSentence, type AccessChange, type SentenceStyle } from '../access/effective.js';
import { mdText, oneLine } from './markdown-escape.js';
import type { Plan } from './types.js';

/** At most this many access sentences in text and markdown; the JSON lists every one. */
export const ACCESS_CAP = 50;

export const ACCESS_HEADING = 'Effective access after this plan';

/** Gains, losses and changes of access: counted here only, for every output that counts them. */
function accessCounts(changes: readonly Pick<AccessChange, 'before' | 'after'>[]): {
  gain: number;
  lose: number;
  change: number;
} {
  const n = { gain: 0, lose: 0, change: 0 };
  for (const c of changes) {
    if (c.before === null) n.gain += 1;
    else if (c.after === null) n.lose += 1;
    else n.change += 1;
  }
  return n;
}

/** `3 to gain, 1 to lose, 2 to change` (the words of the plan's own summary line). */
export function accessSummaryLine(changes: readonly Pick<AccessChange, 'before' | 'after'>[]): string {
  const n = accessCounts(changes);
  return `${n.gain} to gain, ${n.lose} to lose, ${n.change} to change`;
}

const TEXT_STYLE: SentenceStyle = { text: oneLine, title: oneLine };
const MARKDOWN_STYLE: SentenceStyle = { text: mdText, title: (t) => `*${mdText(t)}*` };

/** The plan's access sentences of one organization (all when `org` is undefined). */
function sentencesOf(plan: Plan, style: SentenceStyle, org?: string): { lines: string[]; more: number } {
  const all = (plan.access ?? []).filter((c) => org === undefined || c.organization === org);
  const shown = all.slice(0, ACCESS_CAP).map((c) => accessSentence(c, style));
  return { lines: shown, more: all.length - shown.length };
}

/** The "and N more" line of a cut list. */
const moreLine = (more: number) =>
  `and ${more} more (\`docsync plan --format json\` lists every one in \`access\`)`;

/** Text: the heading with the counts, one sentence a line, at most `ACCESS_CAP`. */
export function accessTextLines(plan: Plan): string[] {
  const access = plan.access ?? [];
  if (access.length === 0) return [];
  const { lines, more } = sentencesOf(plan, TEXT_STYLE);
  return [
    `${ACCESS_HEADING} (${accessSummaryLine(access)}):`,
    ...lines.map((l) => `  ${l}`),
    ...(more > 0 ? [`  ${moreLine(more).replaceAll('`', '')}`] : []),
  ];
}

/** Markdown: a list per organization, titles in italics, every piece of data escaped. */
export function accessMarkdown(plan: Plan): string {
  const access = plan.access ?? [];
  if (access.length === 0) return '';
  const orgs = [...new Set(access.map((c) => c.organization))];
  const parts: string[] = [];
  for (const org of orgs) {
    const { lines, more } = sentencesOf(plan, MARKDOWN_STYLE, org);
    if (orgs.length > 1) parts.push(`${mdText(org)}:`, '');
    parts.push(...lines.map((l) => `- ${l}`), ...(more > 0 ? [`- ${moreLine(more)}`] : []), '');
  }
  return `<details><summary>${ACCESS_HEADING}: ${accessSummaryLine(access)}</summary>\n\n${parts.join('\n')}\n</details>\n`;
}
