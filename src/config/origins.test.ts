import { describe, expect, it } from 'vitest';
import { loadConfigFromBuffers } from './load.js';
import { locateInConfig } from './origins.js';

const file = (name: string, text: string) => ({ file: name, bytes: Buffer.from(text) });

describe('locateInConfig', () => {
  it('points each entry of a list merged from several files at its own file and line', () => {
    const result = loadConfigFromBuffers([
      file('a.yaml', 'organization: org_a\nteams:\n  - title: A0\n  - title: A1\n'),
      file('b.yaml', 'organization: org_a\ncustomFields:\n  - name: f\n    type: text\n'),
      file('c.yaml', 'organization: org_a\nteams:\n  - title: C0\n  - title: C1\n  - title: C2\n'),
    ]);
    expect(result.issues).toEqual([]);
    const org = result.desired!.organizations[0]!;
    expect(org.teams!.map((t) => t.title)).toEqual(['A0', 'A1', 'C0', 'C1', 'C2']);
    const at = (i: number) => locateInConfig(org, ['teams', i, 'title']);
    expect(at(0)).toEqual({ file: 'a.yaml', line: 3, column: 12 });
    expect(at(1)).toEqual({ file: 'a.yaml', line: 4, column: 12 });
    expect(at(2)).toEqual({ file: 'c.yaml', line: 3, column: 12 });
    expect(at(4)).toEqual({ file: 'c.yaml', line: 5, column: 12 });
    expect(locateInConfig(org, ['customFields', 0, 'type'])).toEqual({ file: 'b.yaml', line: 4, column: 11 });
    expect(at(5)).toBeUndefined();
    expect(at(-1)).toBeUndefined();
    expect(at(1.5)).toBeUndefined();
  });
});
