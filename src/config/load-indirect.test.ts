import { afterEach, describe, expect, it, vi } from 'vitest';
import { siteKind } from '../kinds/site.js';
import { loadConfigFromBuffers } from './load.js';

const load = (text: string) => loadConfigFromBuffers([{ file: 'org.yaml', bytes: Buffer.from(text) }], {});
const sites = (extra = '') =>
  `organization: org_t\nsites:\n  - title: Docs\n    visibility: public\n${extra}`;

describe('indirect values: the walk for them (issue 33)', () => {
  afterEach(() => vi.restoreAllMocks());

  it.each([
    ['skips a file the fast reader read that writes no indirect key', sites(), 0],
    ['walks a file that writes one, even in a title', sites('  - title: visitorAuth notes\n'), 2],
    ['walks a file with an escape, which may spell any key', sites('  - title: "D\\u006fcs 2"\n'), 2],
  ])('%s', (_name, text, calls) => {
    const source = vi.spyOn(siteKind.indirect!, 'source');
    expect(load(text).issues).toEqual([]);
    expect(source).toHaveBeenCalledTimes(calls);
  });
});
