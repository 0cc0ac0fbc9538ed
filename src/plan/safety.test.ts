import { describe, expect, it } from 'vitest';
import { checkSafety, guardVerdict, refusalLine } from './safety.js';
import type { Plan, PlanGuardFacts } from './types.js';

/** The deletion guard, case by case: the facts of one organization in, the refusal codes out. */
const plan = (guards: PlanGuardFacts[]): Plan => ({
  formatVersion: 1,
  organizations: guards.map((g) => g.organization),
  changes: [],
  summary: { create: 0, update: 0, delete: 0, move: 0 },
  unmanaged: [],
  errors: [],
  warnings: [],
  guards,
  refusals: [],
  checksum: '',
});

const facts = (over: Partial<PlanGuardFacts>): PlanGuardFacts => ({
  organization: 'org_a',
  deletes: 0,
  creates: 0,
  maxDeletes: 10,
  managedLive: 20,
  ...over,
});

const rows: { name: string; guards: Partial<PlanGuardFacts>[]; allow?: number; refused: string[] }[] = [
  { name: 'no deletion is never refused', guards: [{ managedLive: 0 }], refused: [] },
  { name: 'deletions up to maxDeletes pass', guards: [{ deletes: 10 }], refused: [] },
  {
    name: 'one deletion past maxDeletes is refused',
    guards: [{ deletes: 11 }],
    refused: ['org_a too-many-deletes'],
  },
  { name: '--allow-deletes at the count lets it pass', guards: [{ deletes: 11 }], allow: 11, refused: [] },
  {
    name: '--allow-deletes below the count does not',
    guards: [{ deletes: 11 }],
    allow: 10,
    refused: ['org_a too-many-deletes'],
  },
  {
    name: 'maxDeletes 0 refuses any deletion',
    guards: [{ deletes: 1, maxDeletes: 0 }],
    refused: ['org_a too-many-deletes'],
  },
  {
    name: 'deleting every managed resource and creating nothing is refused',
    guards: [{ deletes: 3, managedLive: 3 }],
    refused: ['org_a deletes-everything'],
  },
  {
    name: 'deleting everything while creating something is a replacement, not an emptied config',
    guards: [{ deletes: 3, managedLive: 3, creates: 1 }],
    refused: [],
  },
  { name: 'deleting all but one passes', guards: [{ deletes: 2, managedLive: 3 }], refused: [] },
  {
    name: 'past maxDeletes and everything: the count is the reason given',
    guards: [{ deletes: 12, managedLive: 12 }],
    refused: ['org_a too-many-deletes'],
  },
  {
    name: 'each organization is judged on its own',
    guards: [
      { deletes: 11 },
      { organization: 'org_b', deletes: 2 },
      { organization: 'org_c', deletes: 1, managedLive: 1 },
    ],
    refused: ['org_a too-many-deletes', 'org_c deletes-everything'],
  },
];

describe('checkSafety', () => {
  it.each(rows)('$name', ({ guards, allow, refused }) => {
    const refusals = checkSafety(plan(guards.map(facts)), allow);
    expect(refusals.map((r) => `${r.organization} ${r.code}`)).toEqual(refused);
    for (const r of refusals) {
      expect(r.message).toContain(r.organization);
      // The message names the way out: the exact --allow-deletes that would pass.
      const g = guards.map(facts).find((x) => x.organization === r.organization)!;
      expect(refusalLine(r)).toContain(`(needs --allow-deletes ${g.deletes})`);
    }
  });

  it('refuses a plan that leaves fewer admins than policy.minAdmins, and no --allow-deletes lifts it', () => {
    const guards = [facts({ deletes: 1, admins: { before: 1, after: 0, min: 1 } })];
    const verdict = guardVerdict(guards);
    expect(verdict.map((r) => [r.guard, r.code, r.override])).toEqual([
      ['minAdmins', 'too-few-admins', null],
    ]);
    expect(refusalLine(verdict[0]!)).toBe(
      'org_a: the plan leaves 0 admin(s), fewer than policy.minAdmins (1) (no flag overrides it)',
    );
    expect(checkSafety(plan(guards), 1000).map((r) => r.code)).toEqual(['too-few-admins']);
    expect(guardVerdict([facts({ admins: { before: 2, after: 1, min: 1 } })])).toEqual([]);
  });

  it("names the entry's own brokenLinks that refused a link (located, else by address), or policy.brokenLinks", () => {
    const link = {
      site: 'Docs',
      address: 'org_a/sites/Docs/guides',
      path: '/guides',
      what: 'section "guides"',
      reason: "moves to /tutorials and the entry's brokenLinks is refuse",
    };
    const setting = { address: 'org_a/sites/Docs/sections/tutorials', path: ['sections', 0, 'brokenLinks'] };
    const messages = guardVerdict([
      facts({
        brokenLinks: [
          { ...link, setting: { ...setting, at: { file: 'sites/docs.yaml', line: 7, column: 9 } } },
          { ...link, setting },
          { ...link, reason: 'moves to /tutorials and policy.brokenLinks is refuse' },
        ],
      }),
    ]).map((r) => r.message.slice(r.message.indexOf('); ') + 3));
    expect(messages).toEqual([
      "brokenLinks: refuse at sites/docs.yaml:7:9 (org_a/sites/Docs/sections/tutorials) refuses it: declare a redirect for it (sites[].redirects), or set that entry's brokenLinks to redirect or allow",
      "brokenLinks: refuse of org_a/sites/Docs/sections/tutorials refuses it: declare a redirect for it (sites[].redirects), or set that entry's brokenLinks to redirect or allow",
      "declare a redirect for it (sites[].redirects), set the site's redirectFallback, or policy.brokenLinks: allow",
    ]);
  });
});
