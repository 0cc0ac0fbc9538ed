import { describe, expect, it } from 'vitest';
import { redact } from './registry.js';
import { registerUrlCredentials } from './url-credentials.js';

describe('registerUrlCredentials', () => {
  it.each([
    ['the token as user name only', 'https://ghp_userOnlyTok3n@git.example/r.git', ['ghp_userOnlyTok3n']],
    ['user and password', 'https://x-access-token:ghs_passw0rdTok@git.example/r.git', ['ghs_passw0rdTok']],
    [
      'a percent-encoded user name',
      'https://tok%2Fen%40xyz@git.example/r.git',
      ['tok/en@xyz', 'tok%2Fen%40xyz'],
    ],
  ])('redacts %s', (_name, url, secrets) => {
    registerUrlCredentials(url);
    for (const secret of secrets) expect(redact(`fatal: could not read ${secret}`)).not.toContain(secret);
    expect(redact(`fatal: unable to access '${url}'`)).not.toContain(secrets[0]);
  });

  it('ignores scp-like URLs and URLs without credentials', () => {
    expect(() => registerUrlCredentials('git@github.com:o/r.git')).not.toThrow();
    registerUrlCredentials('https://git.example/plain.git');
    expect(redact('https://git.example/plain.git')).toBe('https://git.example/plain.git');
  });
});
