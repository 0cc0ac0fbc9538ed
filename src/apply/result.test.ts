import { describe, expect, it } from 'vitest';
import { renderResultTable, resourceLine, type ChangeResult } from './result.js';

const r = (
  id: string,
  action: ChangeResult['action'],
  address: string,
  status: ChangeResult['status'] = 'applied',
) => ({ id, kind: 'site-section', action, address, status, durationMs: 1 }) satisfies ChangeResult;

describe('resourceLine counts resources as the plan does', () => {
  it.each([
    {
      name: 'a creation and its follow-up update are one resource created',
      results: [r('c1', 'create', 'o/sites/A'), r('c2', 'update', 'o/sites/A')],
      line: '1 resource (1 created)',
    },
    {
      name: 'an update of another resource still counts',
      results: [
        r('c1', 'create', 'o/sites/A'),
        r('c2', 'update', 'o/sites/B'),
        r('c3', 'delete', 'o/sites/C'),
      ],
      line: '3 resources (1 created, 1 updated, 1 deleted)',
    },
    {
      name: 'failed and skipped changes are not counted as done',
      results: [
        r('c1', 'create', 'o/sites/A', 'failed'),
        r('c2', 'update', 'o/sites/A', 'skipped'),
        r('c3', 'move', 'o/x'),
      ],
      line: '1 resource (1 moved)',
    },
    { name: 'nothing applied', results: [r('c1', 'delete', 'o/x', 'failed')], line: '0 resources' },
  ])('$name', ({ results, line }) => {
    expect(resourceLine(results)).toBe(line);
  });

  it('the summary names resources and API calls', () => {
    const results = [r('c1', 'create', 'o/sites/A'), r('c2', 'update', 'o/sites/A')];
    const text = renderResultTable({
      results,
      applied: 2,
      failed: 0,
      skipped: 0,
      ok: true,
      durationMs: 1500,
    });
    expect(text).toContain(
      'Apply: 1 resource (1 created) in 2 calls: 2 applied, 0 failed, 0 skipped in 1.5s.',
    );
  });
});

describe('the result table prints data on one line, as text', () => {
  it('a hostile address or message forges no line, no workflow command and no terminal escape', () => {
    const hostile = 'o/sites/x\n::error title=pwn::forged\n\u001b]8;;https://evil\u0007';
    const table = renderResultTable({
      results: [{ ...r('c1', 'create', hostile, 'failed'), message: `failed: ${hostile}` }],
      applied: 0,
      failed: 1,
      skipped: 0,
      ok: false,
      durationMs: 5,
    });
    expect(table.split('\n').some((l) => l.startsWith('::'))).toBe(false);
    const control = (c: number) => (c < 0x20 && c !== 0x0a) || (c >= 0x7f && c <= 0x9f);
    expect([...table].some((ch) => control(ch.codePointAt(0)!))).toBe(false);
    // Header, rule, one row, blank line, summary line, final newline.
    expect(table.split('\n')).toHaveLength(6);
  });
});
