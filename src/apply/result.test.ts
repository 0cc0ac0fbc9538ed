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
