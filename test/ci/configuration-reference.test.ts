import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

/** Every key row of docs/configuration.md: `| key | type | limits | if omitted | description |`. */
function rows(): { section: string; key: string; omitted: string }[] {
  let section = '';
  const out: { section: string; key: string; omitted: string }[] = [];
  for (const line of readFileSync(join(ROOT, 'docs/configuration.md'), 'utf8').split('\n')) {
    const heading = /^#{2,4} (.*)$/.exec(line);
    if (heading) section = heading[1]!;
    const m = /^\| `([^`]+)` \|[^|]*\|[^|]*\| ([^|]*) \|/.exec(line);
    if (m) out.push({ section, key: m[1]!, omitted: m[2]!.trim() });
  }
  return out;
}

describe('docs/configuration.md (issue 16: which keys are optional and what omission means)', () => {
  const all = rows();

  it('says for every key whether it is required, and for every optional key what omitting it means', () => {
    expect(all.length).toBeGreaterThan(80);
    const unclear = all.filter(
      (r) => !/^(\*\*required\*\*|(optional; )?default .+|optional; omitted: .+)$/.test(r.omitted),
    );
    expect(unclear).toEqual([]);
  });

  it('gives the meanings users rely on: policy defaults, optional section titles, unmanaged customFields, id pins and aliases', () => {
    const row = (section: RegExp, key: string) => all.find((r) => section.test(r.section) && r.key === key);
    // An omitted policy is the defaults, not "not managed".
    expect(row(/^Top level/, 'policy')?.omitted).toMatch(
      /prune false, maxDeletes 10, pruneMembers false and minAdmins 1/,
    );
    expect(row(/^`policy`/, 'prune')?.omitted).toMatch(/default false/);
    expect(row(/^`policy`/, 'maxDeletes')?.omitted).toMatch(/default 10/);
    // The API creates a section without a title (named after its space): optional in config.
    expect(row(/^`sites\[\]\.sections\[\]`/, 'title')?.omitted).toMatch(/^optional; omitted: .*space/);
    expect(row(/^`spaces\[\]`/, 'customFields')?.omitted).toMatch(/^optional; omitted: not managed/);
    // Identity keys are not "managed" fields: omitting a pin or an alias changes how entries pair.
    const pins = all.filter(
      (r) => (r.key === 'id' || r.key === 'previously') && r.omitted !== '**required**',
    );
    expect(pins.length).toBeGreaterThanOrEqual(14);
    for (const r of pins)
      expect(r.omitted, `${r.section} ${r.key}`).toMatch(/^optional; omitted: .*(paired|new resource)/);
  });
});
