import { describe, expect, it } from 'vitest';
import type { LiveState } from '../../src/reconcile/index.js';
import { htmlText, mdCode, mdFence, mdText, oneLine, slackText } from '../../src/plan/markdown-escape.js';
import { registerSecret } from '../../src/secrets/registry.js';
import { renderMarkdown } from '../../src/plan/render-markdown.js';
import { renderText } from '../../src/plan/render-text.js';
import type { Plan } from '../../src/plan/types.js';
import { planCase } from '../helpers/golden.js';
import { HOSTILE, injections, shapeOf, textInjections, tokensOf } from '../helpers/hostile-markdown.js';

const base = await planCase('section-create-delete');
const ORG = base.plan.organizations[0]!;

/** The golden plan with `data` in every place live or config data reaches the markdown. */
function planWith(data: string): { plan: Plan; live: LiveState } {
  const org = `org_${data}`;
  const rename = (address: string) => `${org}${address.slice(ORG.length)}`;
  const plan: Plan = {
    ...base.plan,
    organizations: [org],
    changes: base.plan.changes.map((c) => ({
      ...c,
      address: `${rename(c.address)}/~${data}`,
      ...(c.after ? { after: { ...c.after, title: data } } : {}),
      note: data,
    })),
    unmanaged: [
      { kind: 'team', address: `${org}/teams/${data}` },
      { kind: 'site', address: `${org}/sites/${data}` },
    ],
    warnings: [{ organization: org, message: `team "${data}" matches 2 live objects (ids t1, t2); pin one` }],
    errors: [{ organization: org, message: `space "${data}" not found`, code: 'pin-not-found' }],
    duplicates: [{ organization: org, kind: 'team', name: data, ids: ['t1', 't2'] }],
  };
  const live: LiveState = {
    ...base.live,
    organizations: base.live.organizations.map((o) => ({
      ...o,
      id: org,
      sites: (o.sites ?? []).map((s) => ({ ...s, title: `${s.title} ${data}` })),
    })),
  };
  return { plan, live };
}

describe('markdown from hostile live and config data (issue 26, finding 3)', () => {
  const benign = planWith('plain');
  const benignMd = renderMarkdown(benign.plan, { live: benign.live, markOf: () => 'plain' });

  it('the benign plan shows every place data reaches: tables, lists, diff, navigation, warnings', () => {
    expect(benignMd).toContain('Site navigation');
    expect(benignMd).toContain('Unmanaged');
    expect(benignMd).toContain('**Warning**');
    expect(benignMd).toContain('**Error**');
    expect(injections(benignMd)).toEqual([]);
  });

  it.each(HOSTILE.map((h) => [JSON.stringify(h), h]))(
    '%s renders as text only: no link, image, HTML, mention, reference, heading or broken fence',
    (_name, hostile) => {
      const { plan, live } = planWith(hostile);
      const md = renderMarkdown(plan, { live, markOf: () => hostile });
      expect(injections(md)).toEqual([]);
      // Same structure as the benign plan: same blocks, headings, lists, fences and their line counts.
      // (An empty title is a different plan: the tree shows no title change for it.)
      if (hostile.trim() !== '') expect(shapeOf(md)).toEqual(shapeOf(benignMd));
    },
  );

  it('the data is still there, readable', () => {
    const { plan, live } = planWith('@user fixes #1 <b>');
    const text = tokensOf(renderMarkdown(plan, { live }))
      .filter((t) => ['text', 'code_inline', 'fence'].includes(t.type))
      .map((t) => t.content.replace(/\u200b/g, ''))
      .join('\n');
    expect(text).toContain('team "@user fixes #1 <b>" matches 2 live objects');
    expect(text).toContain('org_@user fixes #1 <b>/teams/@user fixes #1 <b>');
  });

  it('a cut comment closes the long fence it cut and only docsync’s own <details>', () => {
    const { plan, live } = planWith('x ````` </details> <details>');
    const full = renderMarkdown(plan, { live });
    const fenceStart = full.indexOf('``````diff');
    expect(fenceStart).toBeGreaterThan(0);
    const cut = renderMarkdown(plan, { live, limit: fenceStart + 400 });
    expect(cut).toContain('Output cut');
    expect(injections(cut)).toEqual([]);
    const fences = tokensOf(cut).filter((t) => t.type === 'fence');
    expect(fences.at(-1)!.markup).toBe('``````');
    expect(cut.match(/^<\/details>$/gm)?.length).toBe(cut.match(/^<details>/gm)?.length);
  });
});

describe('plain text from hostile live and config data', () => {
  const benign = renderText(planWith('plain').plan);

  it.each(HOSTILE.map((h) => [JSON.stringify(h), h]))(
    '%s: no line starts a workflow command, no control character, same line count',
    (_name, hostile) => {
      const { plan } = planWith(hostile);
      const text = renderText(plan, { title: `docsync drift for org_${hostile}` });
      expect(textInjections(text)).toEqual([]);
      if (hostile.trim() !== '') expect(text.split('\n')).toHaveLength(benign.split('\n').length);
      // With colour, docsync's own SGR codes are the only escape sequences.
      // eslint-disable-next-line no-control-regex
      expect(textInjections(renderText(plan, { color: true }).replace(/\u001b\[[0-9;]*m/g, ''))).toEqual([]);
    },
  );

  it('shows control characters as code points', () => {
    const text = renderText(planWith('a\u001b]8;;b').plan);
    expect(text).toContain('a<U+001B>]8;;b');
  });
});

describe('the escaper', () => {
  it('code spans and fences are longer than any backtick run they hold', () => {
    for (let n = 1; n <= 10; n += 1) {
      const data = `a${'`'.repeat(n)}b`;
      const [code] = tokensOf(`x ${mdCode(data)} y`).filter((t) => t.type === 'code_inline');
      expect(code?.content).toBe(data);
      const [fence] = tokensOf(mdFence(`${data}\n${'`'.repeat(n)}`)).filter((t) => t.type === 'fence');
      expect(fence?.content).toBe(`${data}\n${'`'.repeat(n)}\n`);
    }
    expect(tokensOf(mdCode('`x`')).find((t) => t.type === 'code_inline')?.content).toBe('`x`');
  });

  it('text renders as exactly its characters, on one line, with invisible characters shown', () => {
    const data = '*a* [b](c) <i> &amp; \\ | `d` _e_';
    const text = tokensOf(mdText(data)).find((t) => t.type === 'inline')!;
    expect(text.children!.map((t) => t.type)).toEqual(['text']);
    expect(text.content).not.toBe(data);
    expect(text.children![0]!.content).toBe(data);
    expect(mdText('a\nb\u202ec')).toBe('a ↵ b\\<U\\+202E\\>c');
  });

  it('a table cell keeps its | inside code', () => {
    const md = `| a | b |\n|---|---|\n| ${mdCode('x|y', { table: true })} | 1 |`;
    expect(tokensOf(md).filter((t) => t.type === 'td_open')).toHaveLength(2);
  });

  it('HTML and Slack text escape their control characters', () => {
    expect(htmlText('<b>&"\'@x #1')).toBe('&lt;b&gt;&amp;&quot;&#39;@&#8203;x #&#8203;1');
    expect(slackText('<!channel> & <https://e|x>')).toBe('&lt;!channel&gt; &amp; &lt;https://e|x&gt;');
  });
});

describe('secrets are redacted before escaping (escaping would hide them from the redactor)', () => {
  const SECRET = 'gb_api_s3cr3t-token.value';
  const SLACK_SECRET = 'gb&api<s3cr3t>x';
  registerSecret(SECRET);
  registerSecret(SLACK_SECRET);
  const data = `title ${SECRET} ${SLACK_SECRET} see https://h/x?token=abcd1234 end`;
  /** What a reader sees: escapes, zero-width breaks and entities undone. */
  const seen = (out: string) =>
    out
      .replace(/&#8203;|\u200b/g, '')
      .replace(/\\(.)/g, '$1')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&');
  const leaks = (out: string) => [SECRET, SLACK_SECRET, 'abcd1234'].filter((s) => seen(out).includes(s));

  it.each([
    ['oneLine', oneLine],
    ['mdText', mdText],
    ['mdCode', (v: string) => mdCode(v)],
    ['mdCode in a table', (v: string) => mdCode(v, { table: true })],
    ['mdFence', (v: string) => mdFence(v)],
    ['htmlText', htmlText],
    ['slackText', slackText],
  ] as const)('%s', (_name, escape) => {
    const out = escape(data);
    expect(leaks(out)).toEqual([]);
    expect(seen(out)).toContain('[redacted]');
    expect(seen(out)).toContain('[redacted-url]');
  });

  it.each([
    ['markdown', (p: Plan, live: LiveState) => renderMarkdown(p, { live, markOf: () => data })],
    ['text', (p: Plan) => renderText(p)],
  ] as const)('in a rendered plan (%s)', (_name, render) => {
    const { plan, live } = planWith(data);
    const out = render(plan, live);
    expect(leaks(out)).toEqual([]);
    expect(seen(out)).toContain('[redacted]');
  });
});
