import { describe, expect, it } from 'vitest';
import { flavorForUrl, resolveFlavor } from './flavor.js';

describe('the API flavor follows the target unless told', () => {
  it.each([
    ['https://api.gitbook.com', 'current'],
    ['https://API.GitBook.com/', 'current'],
    ['https://api.gitbook.com:443', 'current'],
    ['http://127.0.0.1:4010', 'seed'],
    ['https://api.gitbook.com.example.org', 'seed'],
    ['https://gitbook.example.com', 'seed'],
    ['not a url', 'seed'],
  ])('%s → %s', (url, flavor) => expect(flavorForUrl(url)).toBe(flavor));

  it('a flag wins over the environment, which wins over the URL', () => {
    expect(resolveFlavor('seed', 'current', 'https://api.gitbook.com')).toEqual({
      flavor: 'seed',
      from: 'flag',
    });
    expect(resolveFlavor(undefined, 'seed', 'https://api.gitbook.com')).toEqual({
      flavor: 'seed',
      from: 'env',
    });
    expect(resolveFlavor(undefined, 'current', 'http://127.0.0.1:1')).toEqual({
      flavor: 'current',
      from: 'env',
    });
    expect(resolveFlavor(undefined, undefined, 'https://api.gitbook.com')).toEqual({
      flavor: 'current',
      from: 'api-url',
    });
  });

  it('an unknown value is an error naming where it came from', () => {
    expect(() => resolveFlavor(undefined, 'newest', 'https://api.gitbook.com')).toThrow(
      'DOCSYNC_API_FLAVOR must be seed or current, got "newest"',
    );
  });
});
