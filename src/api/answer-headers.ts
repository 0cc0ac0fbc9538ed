/**
 * The headers of an answer that the client reads (its size, a 429's pause, the rate limit's), in one
 * object of one shape. undici's `parseHeaders` decoded every header (the date, the connection's,
 * the content type) into an object whose shape followed the server's order: a plan reads thousands
 * of answers, and the rate budget read them through polymorphic property loads (issue 33).
 */
export type AnswerHeaders = Record<Name, HeaderValue>;

/** As undici's `parseHeaders` gives it: a header given twice or more is an array of its values. */
type HeaderValue = string | string[] | undefined;

/** The names read. */
const NAMES = [
  'content-length',
  'retry-after',
  'ratelimit-policy',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
] as const;
type Name = (typeof NAMES)[number];

/**
 * The names read, by length (an array indexed by it: no map's lookup per header of every answer): a
 * header of another length is not looked at further.
 */
const BY_LENGTH: (readonly Name[] | undefined)[] = Array.from(
  { length: Math.max(...NAMES.map((name) => name.length)) + 1 },
  () => undefined,
);
for (const name of NAMES) BY_LENGTH[name.length] = [...(BY_LENGTH[name.length] ?? []), name];

/** The headers the client reads, from undici's raw list (name, value, name, value…; names in any case). */
export function answerHeaders(raw: readonly Buffer[]): AnswerHeaders {
  // Every name, in NAMES' order, as a literal: one shape for every answer.
  const headers: AnswerHeaders = {
    'content-length': undefined,
    'retry-after': undefined,
    'ratelimit-policy': undefined,
    'x-ratelimit-limit': undefined,
    'x-ratelimit-remaining': undefined,
    'x-ratelimit-reset': undefined,
  };
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const length = raw[i]!.length;
    const names = length < BY_LENGTH.length ? BY_LENGTH[length] : undefined;
    if (names === undefined) continue;
    const name = nameIn(names, raw[i]!);
    if (name === undefined) continue;
    const value = raw[i + 1]!.toString('latin1');
    const seen = headers[name];
    headers[name] = seen === undefined ? value : typeof seen === 'string' ? [seen, value] : [...seen, value];
  }
  return headers;
}

/**
 * The name of `names` (all of the length of `bytes`) that `bytes` spell in any case, compared byte
 * by byte: no string decoded and lowered per header of a matching length (four an answer).
 */
function nameIn(names: readonly Name[], bytes: Buffer): Name | undefined {
  for (const name of names) if (spells(bytes, name)) return name;
  return undefined;
}

/** Whether the Latin-1 `bytes` are `lower` (lowercase ASCII letters and `-`) in any case. */
function spells(bytes: Buffer, lower: string): boolean {
  for (let j = 0; j < lower.length; j += 1) {
    const want = lower.charCodeAt(j);
    const got = bytes[j]!;
    // A letter also matches its capital (a to z are 0x61 to 0x7a, their capitals 0x20 below).
    if (got !== want && (want < 0x61 || got !== want - 0x20)) return false;
  }
  return true;
}

/** Before an answer's headers came (made by `answerHeaders`: the same shape). Never written to. */
export const NO_HEADERS: AnswerHeaders = answerHeaders([]);
