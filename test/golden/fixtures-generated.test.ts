import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeCases } from '../../scripts/golden-cases.js';
import { cases, PLANS } from '../helpers/golden.js';

/** The golden inputs are built by scripts/golden-cases.ts (`npm run golden`): they must match it byte for byte. */
describe('golden fixtures', () => {
  const out = mkdtempSync(join(tmpdir(), 'docsync-golden-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));
  const written = writeCases(`${out}/`);

  it('every case directory comes from the generator', () => {
    expect(readdirSync(out).sort()).toEqual(cases);
    expect(written).toBe(cases.length);
  });

  it.each(readdirSync(out).sort())('%s: inputs are what the generator writes', (name) => {
    for (const file of readdirSync(join(out, name)))
      expect(readFileSync(join(PLANS, name, file), 'utf8'), `${name}/${file}`).toBe(
        readFileSync(join(out, name, file), 'utf8'),
      );
  });
});
