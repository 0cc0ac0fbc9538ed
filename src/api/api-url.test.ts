import { afterAll, beforeAll, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/server.js';
import { apiBase, uriComponent } from './api-url.js';
import { HttpClient } from './http.js';

const TOKEN = 'api-url-token-0123456789';
let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator({
    token: TOKEN,
    seed: { organizations: [{ id: 'org_u', title: 'U', members: [], spaces: [] }] },
  });
});
afterAll(() => emu.close());

it('--api-url works with or without a trailing /v1 and trailing slashes', async () => {
  for (const suffix of ['', '/', '/v1', '/v1/', '/v1//']) {
    const client = new HttpClient({
      baseUrl: `${emu.url}${suffix}`,
      token: TOKEN,
      userAgent: 'test',
      maxAttempts: 1,
    });
    try {
      const res = await client.send({
        method: 'GET',
        path: '/orgs/org_u/teams',
        route: '/orgs/{org}/teams',
        expect: [200],
      });
      expect(res.status, `--api-url ${emu.url}${suffix}`).toBe(200);
    } finally {
      await client.close();
    }
  }
  expect(apiBase('https://api.example.com/gitbook/v1/')).toBe('https://api.example.com/gitbook/v1');
  expect(apiBase('https://api.example.com/gitbook')).toBe('https://api.example.com/gitbook/v1');
});

it('uriComponent is encodeURIComponent: every character, texts of them, and a lone surrogate', () => {
  for (let code = 0; code < 0x3000; code += 1) {
    if (code >= 0xd800 && code < 0xe000) continue;
    const c = String.fromCharCode(code);
    expect(uriComponent(c)).toBe(encodeURIComponent(c));
    expect(uriComponent(`ab${c}9`)).toBe(encodeURIComponent(`ab${c}9`));
  }
  for (const text of [
    '',
    '1000',
    'bzoyMDAw',
    "a-b_c.d!e~f*g'h(i)",
    'a b',
    'a+b',
    'a/b?c=d&e',
    '1e+21',
    'é',
    '😀',
  ])
    expect(uriComponent(text)).toBe(encodeURIComponent(text));
  // A text kept as it is is the same string, not a copy.
  const id = 'org_heavy';
  expect(uriComponent(id)).toBe(id);
  expect(() => uriComponent('a\ud800')).toThrow(URIError);
});

it('uriComponent encodes a value that is not a text as encodeURIComponent does (a wrong type at run time)', () => {
  for (const value of [null, undefined, 12, true, {}, ['a b']])
    expect(uriComponent(value as unknown as string)).toBe(encodeURIComponent(value as unknown as string));
});
