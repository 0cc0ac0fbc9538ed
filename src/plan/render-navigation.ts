import type { Change, LiveState } from '../reconcile/index.js';
import { mdFence } from './markdown-escape.js';
import { renderTreeText } from './render-tree.js';
import { touchesStructure } from './structure-node.js';
import { structureTree } from './structure-tree.js';

/** Past this many lines, the navigation is collapsed in a `<details>` block. */
const OPEN_LINES = 40;

/**
 * The markdown section that shows a plan's effect on site navigation: the tree now, and the tree
 * after the plan with `+ ~ - ↕` marks and the changed fields (a `diff` block, so GitHub colours
 * additions and removals). Empty when the plan touches no site structure.
 */
export function renderNavigation(
  organizations: readonly string[],
  live: LiveState,
  changes: readonly Change[],
): string {
  if (!touchesStructure(changes)) return '';
  const affected = organizations.filter((org) =>
    touchesStructure(changes.filter((c) => c.address.startsWith(`${org}/`))),
  );
  const before = renderTreeText(structureTree(affected, live, []));
  const after = renderTreeText(structureTree(affected, live, changes, { arrange: 'after' }), {
    marks: true,
  });
  // Fences longer than any run of backticks in titles, so no title can close them.
  const body = `**Now**\n\n${mdFence(before)}\n\n**After this plan**\n\n${mdFence(after, 'diff')}\n`;
  const lines = before.split('\n').length + after.split('\n').length;
  return lines > OPEN_LINES
    ? `<details><summary>Site navigation: now and after this plan</summary>\n\n${body}\n</details>\n`
    : `#### Site navigation\n\n${body}`;
}
