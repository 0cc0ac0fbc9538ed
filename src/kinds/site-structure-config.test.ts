import { describe, expect, it } from 'vitest';
import { loadConfigFromBuffers } from '../config/load.js';
import { normalizeStructure } from './site-structure-config.js';

/**
 * The site structure's normalization and checks (site-structure-config.ts): a site space already in
 * the desired state's form is the config's own object; any other is copied into that form; a space
 * given twice in a site is reported at each repetition, with its first place.
 */

describe('normalizeStructure', () => {
  it('keeps a site space already in the desired form, and copies any other into it', () => {
    const kept = { space: 's1', path: 'v1', default: true };
    const late = { path: 'v2', space: 's2' }; // `space` not first
    const undef = { space: 's3', path: undefined, hidden: false }; // an undefined value
    const unordered = { space: 's4', hidden: true, path: 'v4' }; // `hidden` before `path`
    const unknown = { space: 's5', extra: 1 }; // a key the desired state does not hold
    const spaceless = { path: 'v6' }; // no `space`: copied as the copy always was
    const d = normalizeStructure({
      sections: [{ path: 'a', spaces: [kept, late, undef, unordered, unknown, spaceless] as never }],
      spaces: [kept],
    });
    const spaces = d.sections![0]!.spaces;
    expect(spaces[0]).toBe(kept);
    expect(d.spaces![0]).toBe(kept);
    for (const [i, want] of [
      [1, { space: 's2', path: 'v2' }],
      [2, { space: 's3', hidden: false }],
      [3, { space: 's4', path: 'v4', hidden: true }],
      [4, { space: 's5' }],
      [5, { space: undefined, path: 'v6' }],
    ] as const) {
      expect(spaces[i]).not.toBe([late, undef, unordered, unknown, spaceless][i - 1]);
      expect(spaces[i]).toStrictEqual(want);
      expect(Object.keys(spaces[i]!)).toEqual(Object.keys(want));
    }
  });
  it("copies a section's keys in the desired state's order, leaving out undefined ones", () => {
    const all = {
      spaces: [{ space: 's1' }],
      brokenLinks: 'allow',
      localizedDescription: { fr: 'd' },
      localizedTitle: { fr: 't' },
      draft: false,
      default: true,
      condition: null,
      description: 'd',
      icon: null,
      title: 'T',
      path: 'p',
    };
    const d = normalizeStructure({ sections: [all, { path: 'q', title: undefined, spaces: [] }] as never });
    expect(Object.keys(d.sections![0]!)).toEqual([
      'path',
      'title',
      'icon',
      'description',
      'condition',
      'default',
      'draft',
      'localizedTitle',
      'localizedDescription',
      'brokenLinks',
      'spaces',
    ]);
    expect(d.sections![0]).toStrictEqual(all);
    expect(d.sections![1]).toStrictEqual({ path: 'q', spaces: [] });
  });
});

describe('checkStructure', () => {
  it('reports every repeat of a large site, and none across sites (its table grows, and is reused)', () => {
    // Site 0: 200 sections, paths p0…p149 then repeats (p0 twenty times more), 400 site spaces,
    // s0…s349 then s0…s49 again; site 1: the same paths and other spaces, each once.
    const section = (path: string, a: string, b: string) =>
      `      - { path: ${path}, spaces: [{ space: ${a} }, { space: ${b} }] }`;
    const site0 = Array.from({ length: 200 }, (_, k) =>
      section(k < 180 ? `p${k % 150}` : 'p0', `s${(2 * k) % 350}`, `s${(2 * k + 1) % 350}`),
    );
    const site1 = Array.from({ length: 150 }, (_, k) => section(`p${k}`, `t${2 * k}`, `t${2 * k + 1}`));
    const text = ['organization: o', 'sites:', '  - title: Site A', '    sections:', ...site0];
    text.push('  - title: Site B', '    sections:', ...site1, '');
    const result = loadConfigFromBuffers([{ file: 'x.yaml', bytes: Buffer.from(text.join('\n')) }]);
    const expected: string[] = [];
    const paths = new Set<string>();
    const spaces = new Set<string>();
    site0.forEach((line, k) => {
      const [path, a, b] = [...line.matchAll(/: (\w+)/g)].map((m) => m[1]!);
      if (paths.has(path!)) expected.push(`sites[0].sections[${k}].path`);
      paths.add(path!);
      [a, b].forEach((space, j) => {
        if (spaces.has(space!)) expected.push(`sites[0].sections[${k}].spaces[${j}].space`);
        spaces.add(space!);
      });
    });
    expect(expected.length).toBe(50 + 50);
    expect(result.issues.filter((i) => i.code !== 'duplicate')).toEqual([]);
    expect(result.issues.map((i) => i.path).sort()).toEqual(expected.sort());
  });
  it('names the first place of a space repeated across sections and root spaces', () => {
    const text = [
      'organization: o',
      'sites:',
      '  - title: Docs',
      '    sections:',
      '      - { path: a, spaces: [{ space: s1 }, { space: s2 }] }',
      '      - { path: b, spaces: [{ space: s3 }, { space: s2 }] }',
      '    spaces: [{ space: s3 }, { space: s2 }, { space: s4 }, { space: s4 }]',
      '',
    ].join('\n');
    const result = loadConfigFromBuffers([{ file: 'x.yaml', bytes: Buffer.from(text) }]);
    expect(result.issues.map((i) => [i.code, i.path, i.message])).toEqual([
      [
        'duplicate',
        'sites[0].sections[1].spaces[1].space',
        'site space for space "s2" is described twice (first at x.yaml:5:53)',
      ],
      ['sections-and-spaces', 'sites[0].spaces', 'a site has either sections or root spaces, not both'],
      [
        'duplicate',
        'sites[0].spaces[0].space',
        'site space for space "s3" is described twice (first at x.yaml:6:38)',
      ],
      [
        'duplicate',
        'sites[0].spaces[1].space',
        'site space for space "s2" is described twice (first at x.yaml:5:53)',
      ],
      [
        'duplicate',
        'sites[0].spaces[3].space',
        'site space for space "s4" is described twice (first at x.yaml:7:53)',
      ],
    ]);
  });
  it('reports a site space path given twice in one section or in the root, not across sections', () => {
    const text = [
      'organization: o',
      'sites:',
      '  - title: Docs',
      '    sections:',
      '      - { path: a, spaces: [{ space: s1, path: v1 }, { space: s2, path: v1 }, { space: s3, path: v1 }] }',
      '      - { path: b, spaces: [{ space: s4, path: v1 }, { space: s5 }, { space: s6 }] }',
      '  - title: Root',
      '    spaces: [{ space: s7, path: v2 }, { space: s8, path: v3 }, { space: s9, path: v2 }]',
      '',
    ].join('\n');
    const result = loadConfigFromBuffers([{ file: 'x.yaml', bytes: Buffer.from(text) }]);
    expect(result.issues.map((i) => [i.code, i.path, i.message])).toEqual([
      [
        'duplicate',
        'sites[0].sections[0].spaces[1].path',
        'site space path "v1" is described twice (first at x.yaml:5:48)',
      ],
      [
        'duplicate',
        'sites[0].sections[0].spaces[2].path',
        'site space path "v1" is described twice (first at x.yaml:5:48)',
      ],
      [
        'duplicate',
        'sites[1].spaces[2].path',
        'site space path "v2" is described twice (first at x.yaml:8:33)',
      ],
    ]);
  });
  it('names the first place of a section path given three times, with defaults and groups', () => {
    const text = [
      'organization: o',
      'sites:',
      '  - title: Docs',
      '    sections:',
      '      - { path: a, default: true, spaces: [{ space: s1, default: true }, { space: s2, default: true }] }',
      '      - { path: b, spaces: [{ space: s3 }] }',
      '      - { path: a, default: true, spaces: [{ space: s4 }] }',
      '      - { path: a, spaces: [{ space: s5 }] }',
      '    sectionGroups:',
      '      - { title: G, sections: [a, c] }',
      '',
    ].join('\n');
    const result = loadConfigFromBuffers([{ file: 'x.yaml', bytes: Buffer.from(text) }]);
    expect(result.issues.map((i) => [i.code, i.path, i.message])).toEqual([
      [
        'multiple-defaults',
        'sites[0].sections[0].spaces[1].default',
        'only one site space of a section can be the default (another is at x.yaml:5:66)',
      ],
      [
        'duplicate',
        'sites[0].sections[2].path',
        'section path "a" is described twice (first at x.yaml:5:17)',
      ],
      [
        'multiple-defaults',
        'sites[0].sections[2].default',
        'only one section of a site can be the default (another is at x.yaml:5:29)',
      ],
      [
        'duplicate',
        'sites[0].sections[3].path',
        'section path "a" is described twice (first at x.yaml:5:17)',
      ],
      ['unknown-reference', 'sites[0].sectionGroups[0].sections[1]', 'no section with path "c" in this site'],
    ]);
  });
});
