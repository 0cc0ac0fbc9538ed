import { oneLine } from './markdown-escape.js';
import { NODE_HINTED, NODE_WORD, type OrgStructure, type StructureNode } from './structure-node.js';

export type TreeTextOptions = {
  /** Show `+ ~ - ↕` in the first column and the changed fields under each node. */
  marks?: boolean;
};

/**
 * The navigation as text, one node a line (data on one line: no title forges a line), indented by depth, the mark in the first column (so a
 * markdown `diff` block colours additions and removals):
 *
 * ```
 *   org_demo
 *     Developer Docs (site)
 *       Products (group)
 * +       Guides /guides
 * ~         space_guides /v2
 *             path: "v1" → "v2"
 *         space_beta /beta [hidden]
 * +     Changelog /changelog [draft]
 *       Status → https://status.example.com (external link)
 * ```
 */
export function renderTreeText(orgs: readonly OrgStructure[], options: TreeTextOptions = {}): string {
  const lines: string[] = [];
  const emit = (n: StructureNode, depth: number) => {
    const mark = options.marks && n.mark ? n.mark : ' ';
    const hint = NODE_HINTED.includes(n.kind) ? NODE_WORD[n.kind] : undefined;
    const states = n.states.map((x) => ` [${x}]`).join('');
    lines.push(`${mark} ${'  '.repeat(depth)}${oneLine(n.label)}${hint ? ` (${hint})` : ''}${states}`);
    if (options.marks)
      for (const c of n.changes) {
        for (const f of c.fields) lines.push(`  ${'  '.repeat(depth + 2)}${oneLine(f)}`);
        if (c.note) lines.push(`  ${'  '.repeat(depth + 2)}# ${oneLine(c.note)}`);
      }
    for (const child of n.children) emit(child, depth + 1);
  };
  for (const org of orgs) {
    lines.push(`  ${oneLine(org.organization)}`);
    if (org.sites.length === 0) lines.push('    (no sites)');
    for (const site of org.sites) emit(site, 1);
    if (options.marks)
      for (const c of org.unplaced)
        lines.push(
          `${c.action === 'create' ? '+' : c.action === 'delete' ? '-' : '~'}   ${c.kind} ${oneLine(c.address)}`,
        );
  }
  return lines.join('\n');
}
