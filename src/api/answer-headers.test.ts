import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { answerHeaders, NO_HEADERS } from './answer-headers.js';

const require = createRequire(import.meta.url);
const { parseHeaders } = require('undici/lib/core/util.js') as {
  parseHeaders: (raw: Buffer[]) => Record<string, string | string[] | undefined>;
};

const raw = (...pairs: [string, string][]): Buffer[] =>
  pairs.flatMap(([name, value]) => [Buffer.from(name, 'latin1'), Buffer.from(value, 'latin1')]);

describe('answerHeaders: the headers the client reads, as undici parsed them', () => {
  it('reads the rate limit, size and pause headers in any case, duplicates as arrays, and nothing else', () => {
    const given = raw(
      ['X-RateLimit-Limit', '100'],
      ['x-ratelimit-remaining', '7'],
      ['X-RATELIMIT-RESET', '1795728174'],
      ['RateLimit-Policy', '100;w=60'],
      ['Retry-After', '2'],
      ['retry-after', '3'],
      ['Retry-After', '4'],
      ['Content-Type', 'application/json; charset=utf-8'],
      ['content-length', '73'],
      ['Date', 'Thu, 26 Nov 2026 21:21:51 GMT'],
      ['X-RateLimit-Resets', 'no'],
      ['Keep-Alive', 'timeout=5'],
    );
    const undici = parseHeaders(given);
    const ours = answerHeaders(given);
    expect(ours).toEqual({
      'content-length': '73',
      'retry-after': ['2', '3', '4'],
      'ratelimit-policy': '100;w=60',
      'x-ratelimit-limit': '100',
      'x-ratelimit-remaining': '7',
      'x-ratelimit-reset': '1795728174',
    });
    for (const [name, value] of Object.entries(ours)) expect(value).toEqual(undici[name]);
  });

  it('matches a name in any case of its letters only, as parseHeaders lowers it', () => {
    // Each byte a name's letter's or `-`'s neighbours might be taken for: a control character
    // (`\r` is `-` | 0x20), a Latin-1 letter, `@`, `` ` ``, `{`, `_`, a space.
    for (const odd of ['\r', '\x8d', '\xc1', '@', '`', '{', '_', ' ', 'A', 'a'])
      for (const at of [0, 7, 13]) {
        const name = `Content-Length`.slice(0, at) + odd + `Content-Length`.slice(at + 1);
        const given = raw([name, '5']);
        expect(answerHeaders(given)['content-length']).toEqual(parseHeaders(given)['content-length']);
      }
  });

  it('has every name undefined when none came, in the same shape', () => {
    const none = answerHeaders(raw(['Date', 'x']));
    expect(Object.keys(none)).toEqual(Object.keys(NO_HEADERS));
    expect(Object.values(none).every((v) => v === undefined)).toBe(true);
  });
});
