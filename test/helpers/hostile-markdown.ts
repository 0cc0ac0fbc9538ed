import MarkdownIt from 'markdown-it';
import type Token from 'markdown-it/lib/token.mjs';

/** Titles an attacker with edit rights on the platform (or a config author) could write. */
export const HOSTILE: readonly string[] = [
  '[click](https://evil.example/x)',
  '![pixel](https://evil.example/p.png)',
  '<img src=x onerror=alert(1)>',
  '<details><summary>open</summary>',
  '</details>',
  '</summary></details><img src=x>',
  '<!-- hidden -->',
  '@user please approve',
  '@org/team',
  '#1',
  'fixes #1',
  'GH-12',
  'owner/repo#3',
  'https://evil.example',
  'www.evil.example',
  '<https://evil.example>',
  'mail evil@evil.example',
  '[x]: http://ref',
  '[x][y] and [z]',
  '# heading',
  '---',
  '| a | b |\n|---|---|\n| c | d |',
  '***',
  '*em* _em_ **strong** ~~del~~',
  ...Array.from({ length: 10 }, (_, i) => `${'`'.repeat(i + 1)} code ${'`'.repeat(i + 1)}`),
  '`',
  'x\n```\n@user [l](https://evil.example) #2',
  'x\n````\n# Heading\n- list',
  '&lt;img src=x&gt; &#64;user &#35;1',
  'zero\u200bwidth @\u200buser',
  '\u202eevil.exe',
  '1. item',
  '- item',
  '> quote',
  'line\r\n# h',
  'tab\tand\\ back\\',
  ' ',
  '',
  // Plain text (the Action's log, a terminal): a forged workflow command and escape sequences.
  'x\n::error title=pwn::forged\n\u001b]8;;https://evil\u0007',
  '::add-mask::x',
  '\u001b[2J\u001b[31mred\u009b0m\u0000\u007f',
];

/** What no line of plain-text output may hold: a workflow command, or any control character. */
export function textInjections(text: string): string[] {
  const found: string[] = [];
  for (const line of text.split('\n')) {
    if (/^\s*::/.test(line)) found.push(`workflow command: ${line}`);
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.test(line))
      found.push(`control character: ${JSON.stringify(line)}`);
  }
  return found;
}

const md = new MarkdownIt({ html: true, linkify: true });

/** A token's children flattened, with runs of text joined and soft breaks dropped. */
function flatten(tokens: readonly Token[]): Token[] {
  const out: Token[] = [];
  for (const t of tokens) {
    out.push(t);
    if (t.children) out.push(...flatten(t.children));
  }
  return out;
}

export function tokensOf(markdown: string): Token[] {
  return flatten(md.parse(markdown, {}));
}

/** The markdown's structure without its text: what data must never change. */
export function shapeOf(markdown: string): string[] {
  const shape: string[] = [];
  for (const t of tokensOf(markdown)) {
    if (t.type === 'softbreak') continue;
    if (t.type === 'text' && shape.at(-1) === 'text') continue;
    if (t.type === 'fence' || t.type === 'code_block')
      shape.push(`${t.type}:${t.info}:${t.content.split('\n').length}`);
    else shape.push(t.type);
  }
  return shape;
}

/** What GitHub links in text after rendering (mentions, references, URLs, e-mails). */
const GITHUB_LINKS: readonly [string, RegExp][] = [
  ['@-mention or e-mail', /@[A-Za-z0-9]/],
  ['issue reference', /#[0-9]/],
  ['GH- reference', /\bGH-[0-9]/i],
  ['URL', /[a-z][a-z0-9+.-]*:\/\//i],
  ['www autolink', /\bwww\./i],
];

/** Everything in the markdown that is more than text, with the data that made it. */
export function injections(markdown: string): string[] {
  const found: string[] = [];
  for (const t of tokensOf(markdown)) {
    if (['link_open', 'image', 'html_inline'].includes(t.type)) found.push(`${t.type}: ${t.content}`);
    if (
      t.type === 'html_block' &&
      !/^(<!-- docsync-plan -->|<details><summary>[^<>]*<\/summary>|<\/details>)\n?$/.test(t.content)
    )
      found.push(`html_block: ${t.content}`);
    if (t.type === 'text')
      for (const [what, re] of GITHUB_LINKS) if (re.test(t.content)) found.push(`${what}: ${t.content}`);
  }
  return found;
}
