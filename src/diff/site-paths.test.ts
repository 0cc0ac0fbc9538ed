import { describe, expect, it } from 'vitest';
import { planLinks, type BrokenLinksPolicy, type LinkInput } from './site-paths.js';

/**
 * The pure planning of links that survive restructuring (decision 36): which old published paths
 * get a redirect and to where, chains collapsed, loops and unknown destinations refused, what
 * breaks under each policy. Targets are plain strings here (the object a path shows).
 */

type Old = LinkInput<string>['old'][number];

function run(
  old: Old[],
  after: Record<string, string>,
  declared: Record<string, string> = {},
  policy: BrokenLinksPolicy = 'redirect',
  fallback?: string,
  drafts?: string[],
) {
  const r = planLinks<string>({
    policy,
    ...(fallback !== undefined ? { fallback } : {}),
    ...(drafts !== undefined ? { drafts } : {}),
    old,
    after: new Map(Object.entries(after)),
    declared: new Map(Object.entries(declared)),
  });
  const dest = (d: { to: string } | { url: string }) => ('url' in d ? d.url : d.to);
  return {
    planned: r.planned.map(
      (p) => `${p.source} → ${dest(p.destination)}${p.captureWildcard ? ' (+rest)' : ''}`,
    ),
    resolved: Object.fromEntries([...r.resolved].map(([s, d]) => [s, dest(d)])),
    broken: r.broken.map((b) => b.path),
    problems: r.problems.map((p) => `${p.code}: ${p.message}`),
  };
}

const section = (path: string, target: string | null, targetPath?: string): Old => ({
  path,
  label: `section "${path.slice(1)}"`,
  target,
  ...(targetPath !== undefined ? { targetPath } : {}),
});

describe('planLinks: path changes become redirects', () => {
  const cases: {
    name: string;
    old: Old[];
    after: Record<string, string>;
    declared?: Record<string, string>;
    policy?: BrokenLinksPolicy;
    fallback?: string;
    drafts?: string[];
    planned?: string[];
    resolved?: Record<string, string>;
    broken?: string[];
    problems?: string[];
  }[] = [
    {
      name: 'an unchanged path needs nothing',
      old: [section('/guides', 'S1', '/guides')],
      after: { '/guides': 'S1' },
      planned: [],
    },
    {
      name: 'a renamed section: its path and what is below it go to its new place',
      old: [section('/guides', 'S1', '/tutorials')],
      after: { '/tutorials': 'S1' },
      planned: ['/guides → S1', '/guides/* → S1 (+rest)'],
    },
    {
      name: 'a site space that keeps its segment in a renamed section is carried by the section',
      old: [
        section('/guides', 'S1', '/tutorials'),
        { path: '/guides/v2', label: 'ss', target: 'SS1', targetPath: '/tutorials/v2', under: '/guides' },
      ],
      after: { '/tutorials': 'S1', '/tutorials/v2': 'SS1' },
      planned: ['/guides → S1', '/guides/* → S1 (+rest)'],
    },
    {
      name: 'a site space moved to another section gets its own',
      old: [section('/a', 'A', '/a'), { path: '/a/v1', label: 'ss', target: 'SS1', targetPath: '/b/v1' }],
      after: { '/a': 'A', '/b': 'B', '/b/v1': 'SS1' },
      planned: ['/a/v1 → SS1', '/a/v1/* → SS1 (+rest)'],
    },
    {
      name: 'two sections that exchange paths break nothing',
      old: [section('/a', 'A', '/b'), section('/b', 'B', '/a')],
      after: { '/a': 'B', '/b': 'A' },
      planned: [],
    },
    {
      name: 'a deleted section with no redirect or fallback is a broken link',
      old: [section('/legacy', null)],
      after: { '/guides': 'S1' },
      planned: [],
      broken: ['/legacy'],
    },
    {
      name: 'a deleted section goes to the site fallback',
      old: [section('/legacy', null)],
      after: { '/guides': 'S1' },
      fallback: '/guides',
      planned: ['/legacy → S1', '/legacy/* → S1'],
    },
    {
      name: 'a declared redirect for the old path wins over the planned one',
      old: [section('/guides', 'S1', '/tutorials')],
      after: { '/tutorials': 'S1', '/home': 'H' },
      declared: { '/guides': '/home' },
      planned: [],
      resolved: { '/guides': 'H' },
    },
    {
      name: 'a declared destination that the plan moves away follows it (a → b, b → c: a → c)',
      old: [section('/b', 'S1', '/c')],
      after: { '/c': 'S1' },
      declared: { '/a': '/b' },
      planned: ['/b → S1', '/b/* → S1 (+rest)'],
      resolved: { '/a': 'S1' },
    },
    {
      name: 'declared chains collapse',
      old: [],
      after: { '/c': 'C' },
      declared: { '/a': '/b', '/b': '/c' },
      resolved: { '/a': 'C', '/b': 'C' },
    },
    {
      name: 'a declared loop is refused',
      old: [],
      after: {},
      declared: { '/a': '/b', '/b': '/a' },
      resolved: {},
      problems: ['redirect-loop: redirect loop: /a → /b → /a', 'redirect-loop: redirect loop: /b → /a → /b'],
    },
    {
      name: 'a redirect to itself is a loop',
      old: [],
      after: {},
      declared: { '/a': '/a' },
      problems: ['redirect-loop: redirect loop: /a → /a'],
    },
    {
      name: 'a destination that is no path after the plan is refused',
      old: [],
      after: { '/guides': 'S1' },
      declared: { '/x': '/nowhere' },
      problems: [
        'unknown-redirect-destination: redirect /x: destination /nowhere is neither a path of the site after this plan nor a URL',
      ],
    },
    {
      name: 'a URL destination is taken as it is',
      old: [],
      after: {},
      declared: { '/status': 'https://status.example.com' },
      resolved: { '/status': 'https://status.example.com' },
    },
    {
      name: 'refuse: a rename is not redirected by docsync, it breaks',
      old: [section('/guides', 'S1', '/tutorials')],
      after: { '/tutorials': 'S1' },
      policy: 'refuse',
      planned: [],
      broken: ['/guides'],
    },
    {
      name: 'refuse: a declared redirect covers the old path',
      old: [section('/guides', 'S1', '/tutorials')],
      after: { '/tutorials': 'S1' },
      declared: { '/guides': '/tutorials' },
      policy: 'refuse',
      broken: [],
      resolved: { '/guides': 'S1' },
    },
    {
      name: 'allow: nothing planned, nothing broken',
      old: [section('/guides', 'S1', '/tutorials'), section('/legacy', null)],
      after: { '/tutorials': 'S1' },
      policy: 'allow',
      planned: [],
      broken: [],
    },
    {
      name: "an entry's own policy wins over the organization's",
      old: [{ ...section('/legacy', null), policy: 'allow' }],
      after: {},
      broken: [],
    },
    {
      name: 'a deleted draft section has no published URL: no redirect, no broken link',
      old: [section('/wip', null), { path: '/wip/v1', label: 'ss', target: null }],
      after: { '/guides': 'S1' },
      drafts: ['/wip'],
      planned: [],
      broken: [],
    },
    {
      name: 'a deleted draft section breaks nothing under refuse either',
      old: [section('/wip', null), { path: '/wip/v1', label: 'ss', target: null }],
      after: {},
      policy: 'refuse',
      drafts: ['/wip'],
      broken: [],
    },
    {
      name: 'a renamed draft section plans no redirect, nor do its site spaces',
      old: [
        section('/wip', 'S1', '/next'),
        { path: '/wip/v1', label: 'ss', target: 'SS1', targetPath: '/other/v1' },
      ],
      after: { '/next': 'S1', '/other/v1': 'SS1' },
      drafts: ['/wip'],
      planned: [],
    },
    {
      name: 'a draft site space moved or deleted plans nothing; its published section still does',
      old: [
        section('/guides', 'S1', '/tutorials'),
        { path: '/guides/beta', label: 'ss', target: 'SS1', targetPath: '/api/beta' },
        { path: '/guides/old', label: 'ss', target: null },
      ],
      after: { '/tutorials': 'S1', '/api/beta': 'SS1' },
      policy: 'refuse',
      drafts: ['/guides/beta', '/guides/old'],
      planned: [],
      broken: ['/guides'],
    },
    {
      name: 'a draft path is matched by segment: /wip does not hide /wiper',
      old: [section('/wiper', null)],
      after: {},
      drafts: ['/wip'],
      broken: ['/wiper'],
    },
  ];
  it.each(cases)('$name', (c) => {
    const r = run(c.old, c.after, c.declared, c.policy, c.fallback, c.drafts);
    if (c.planned) expect(r.planned).toEqual(c.planned);
    if (c.resolved) expect(r.resolved).toEqual(c.resolved);
    expect(r.broken).toEqual(c.broken ?? []);
    expect(r.problems).toEqual(c.problems ?? []);
  });
});
