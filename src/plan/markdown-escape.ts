/**
 * The one escaper for every string that is not docsync's own text (live titles, config values,
 * error messages holding user data, paths, e-mails) when it goes into markdown (plan
 * `--format markdown`, the pull-request comment, the drift report) or a Slack-style notification.
 *
 * Markdown offers no "literal text" container, and GitHub links more than CommonMark does
 * (@-mentions, `#1`, `GH-1`, `owner/repo#1`, bare URLs, e-mails) after rendering, on the HTML's
 * text. So data is either a code span (`mdCode`), a fenced block (`mdFence`, with `oneLine` on each
 * value it holds), text with every ASCII punctuation backslash-escaped and GitHub's references
 * broken by a zero-width space (`mdText`), or HTML text (`htmlText`, inside `<summary>`).
 * Why hand-written: docs/decisions/0024-markdown-escaping.md.
 *
 * Each of them redacts its input first (`redact`, the one redaction point): escaping changes a
 * secret's characters (`a_b` becomes `a\_b`), so a redactor run on the escaped output misses it.
 * `oneLine` also serves plain text (`plan`'s text output, the Action's log): it leaves no line
 * break and no control character (ESC, C1, bidi), so data can neither start a line (`::error`)
 * nor drive a terminal.
 */
import { redact } from '../secrets/registry.js';

/** Line breaks of every kind: a newline in data must never start a new markdown line. */
const LINE_BREAKS = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/g;
/** Bidi controls, zero-width spaces, BOM and other controls: shown as `<U+202E>`, never applied. */
const INVISIBLE =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000e-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;
/** Text that `oneLine` leaves as it is once redacted: space to tilde, nothing else. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const TAB = /\t/g;
/** Every ASCII punctuation character, all of which CommonMark lets a backslash make literal. */
const PUNCTUATION = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g;
/** A zero-width space: GitHub links no `@user`, `#1`, `GH-1` or URL that it splits. */
const ZWSP = '&#8203;';

const codePoint = (c: string): string =>
  `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * One line, nothing hidden, no secret: line breaks become ` ↵ `, control and invisible characters
 * (C0 with ESC, DEL, C1, bidi, zero-width) `<U+XXXX>`, secrets `[redacted]`.
 */
export function oneLine(value: string): string {
  const redacted = redact(value);
  // Printable ASCII holds no line break, tab or invisible character: nothing more to replace
  // (most of a plan's 100,000 strings; issue 33).
  if (PRINTABLE_ASCII.test(redacted)) return redacted;
  return redacted
    .replace(LINE_BREAKS, ' ↵ ')
    .replace(TAB, ' ')
    .replace(INVISIBLE, (c) => `<${codePoint(c)}>`);
}

/** Break what GitHub turns into links after rendering: mentions, issue references, URLs, e-mails. */
function breakReferences(escaped: string): string {
  return escaped
    .replace(/\\([@#])/g, `\\$1${ZWSP}`)
    .replace(/(gh)\\-(?=[0-9])/gi, `$1\\-${ZWSP}`)
    .replace(/\\:\\\/\\\//g, `\\:${ZWSP}\\/\\/`)
    .replace(/(www)\\\./gi, `$1${ZWSP}\\.`);
}

/**
 * Data as inline markdown text: renders as exactly its characters (on one line) and nothing else:
 * no emphasis, link, image, HTML, autolink, heading, list, table cell, mention or reference.
 */
export function mdText(value: string): string {
  return breakReferences(oneLine(value).replace(PUNCTUATION, (c) => `\\${c}`));
}

/** The longest run of backticks in a text. */
function longestBacktickRun(text: string): number {
  return Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
}

/**
 * Data as a code span, delimited by more backticks than any run it holds. In a table cell (`table`)
 * a `|` is escaped as GFM requires even inside code.
 */
export function mdCode(value: string, options: { table?: boolean } = {}): string {
  let text = oneLine(value);
  if (options.table) text = text.replace(/\|/g, '\\|');
  if (text === '') return '` `';
  const fence = '`'.repeat(longestBacktickRun(text) + 1);
  const pad = /^[` ]|[` ]$/.test(text) ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/**
 * A fenced code block around text whose values went through `oneLine`: the fence is longer than
 * any backtick run inside, so nothing inside can close it.
 */
export function mdFence(rawBody: string, info = ''): string {
  const body = redact(rawBody);
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(body) + 1));
  return `${fence}${info}\n${body}\n${fence}`;
}

/** Data inside raw HTML (`<summary>`): entities for `& < > " '`, references broken. */
export function htmlText(value: string): string {
  return oneLine(value)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/[@#]/g, (c) => `${c}${ZWSP}`)
    .replace(/(gh)-(?=[0-9])/gi, `$1-${ZWSP}`)
    .replace(/:\/\//g, `:${ZWSP}//`)
    .replace(/(www)\./gi, `$1${ZWSP}.`)
    .replace(/'/g, '&#39;');
}

/** Data in Slack mrkdwn: `&`, `<` and `>` are its only control characters (`<!channel>`, links). */
export function slackText(value: string): string {
  return oneLine(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Data in a Microsoft Teams Adaptive Card `TextBlock` (its markdown subset): `mdText`, with the
 * zero-width space as the character itself, since a card shows HTML entities as written.
 */
export function cardText(value: string): string {
  return mdText(value).replaceAll(ZWSP, '\u200b');
}
