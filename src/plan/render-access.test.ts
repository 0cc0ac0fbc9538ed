import { describe, expect, it } from 'vitest';
import { ACCESS_CAP, accessMarkdown, accessSummaryLine, accessTextLines } from './render-access.js';
import type { Plan, PlanAccessChange } from './types.js';

const change = (over: Partial<PlanAccessChange> = {}): PlanAccessChange => ({
  organization: 'org',
  subject: 'ann@acme.com',
  subjectKind: 'member',
  object: 'site Docs',
  objectKind: 'site',
  objectTitle: 'Docs',
  before: null,
  after: 'admin',
  via: 'team Platform',
  ...over,
});
const plan = (access: PlanAccessChange[]) => ({ access }) as unknown as Plan;

describe('the access section', () => {
  it.each<[string, PlanAccessChange, string, string]>([
    [
      'a gain through a team',
      change(),
      'ann@acme.com gains admin on site Docs (via team Platform)',
      'ann\\@&#8203;acme\\.com gains admin on site *Docs* (via team Platform)',
    ],
    [
      'a team lowered',
      change({
        subject: 'Team Support',
        subjectKind: 'team',
        object: 'space API Reference',
        objectKind: 'space',
        objectTitle: 'API Reference',
        before: 'edit',
        after: 'read',
        via: 'direct grant',
      }),
      'Team Support: edit → read on space API Reference (via direct grant)',
      'Team Support: edit → read on space *API Reference* (via direct grant)',
    ],
    [
      'a hostile title and team stay data',
      change({
        subject: 'Team *x* @all',
        subjectKind: 'team',
        objectTitle: '[a](http://e.vil)\n# h',
        before: 'read',
        after: null,
        via: 'direct grant',
      }),
      'Team *x* @all loses read on site [a](http://e.vil) ↵ # h (via direct grant)',
      'Team \\*x\\* \\@&#8203;all loses read on site *\\[a\\]\\(http\\:&#8203;\\/\\/e\\.vil\\) ↵ \\#&#8203; h* (via direct grant)',
    ],
  ])('%s', (_what, c, text, md) => {
    expect(accessTextLines(plan([c]))[1]).toBe(`  ${text}`);
    expect(accessMarkdown(plan([c]))).toContain(`- ${md}\n`);
  });

  it('is capped with "and N more"; the counts are of all of them', () => {
    const many = Array.from({ length: ACCESS_CAP + 7 }, (_, i) => change({ subject: `u${i}@acme.com` }));
    const lines = accessTextLines(plan(many));
    expect(lines[0]).toBe(`Effective access after this plan (${accessSummaryLine(many)}):`);
    expect(lines).toHaveLength(ACCESS_CAP + 2);
    expect(lines.at(-1)).toBe('  and 7 more (docsync plan --format json lists every one in access)');
    const md = accessMarkdown(plan(many));
    expect(md).toContain(
      `<summary>Effective access after this plan: ${ACCESS_CAP + 7} to gain, 0 to lose, 0 to change</summary>`,
    );
    expect(md).toContain('- and 7 more (`docsync plan --format json` lists every one in `access`)');
  });

  it('says nothing without access changes', () => {
    expect(accessTextLines(plan([]))).toEqual([]);
    expect(accessMarkdown(plan([]))).toBe('');
  });
});
