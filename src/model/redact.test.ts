import { describe, expect, it } from 'vitest';
import { redactText } from './redact.js';

/** Both expressions run on every text, as before the checks for what they need. */
const scanned = (text: string) =>
  text
    .replace(
      /https?:\/\/[^\s"'<>]*[?&](share|token|key|sig|signature|secret|access_token)=[^\s"'<>]*/gi,
      '[redacted-url]',
    )
    .replace(/\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/g, 'Bearer [redacted]');

describe('redactText', () => {
  const texts = [
    'nothing to hide here',
    'see https://x.test/a?share=abc123 now',
    'HTTPS://X.TEST/A?TOKEN=SECRET and http://y.test/?sig=1&b=2',
    'Authorization: Bearer abcdefgh12345678',
    'Bearer short and bearer abcdefghijkl (lower case kept)',
    'both: https://x.test/?key=v Bearer abcdefghijklmnop',
    'Https://x.test/?Secret=1\nBearer\tABCDEFGH.ijkl',
    'a url without a secret: https://x.test/page?x=1',
    '://?token=x alone',
  ];
  it.each(texts)('redacts %j as both expressions do', (text) => {
    expect(redactText(text)).toBe(scanned(text));
  });

  it('redacts the secrets given, after the expressions', () => {
    expect(redactText('pass hunter2 and https://x.test/?token=hunter2', ['hunter2'])).toBe(
      'pass [redacted] and [redacted-url]',
    );
  });
});
