import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { mutate, rng } from '../../test/helpers/mutate.js';
import { loadConfigFromBuffers } from './load.js';

const sources = [
  '../../config/demo.yaml',
  '../../test/fixtures/config/good/root-spaces.yaml',
  '../../test/fixtures/config/good/teams.yaml',
].map((f) => readFileSync(new URL(f, import.meta.url), 'utf8'));

describe('loader under random mutations', () => {
  it('never throws: every mutation is valid or gets located errors (600 seeded cases)', () => {
    const random = rng(Number(process.env['DOCSYNC_FUZZ_SEED'] ?? 20261121));
    let invalid = 0;
    for (let i = 0; i < 600; i += 1) {
      const text = mutate(sources[i % sources.length]!, random);
      const result = loadConfigFromBuffers([{ file: 'm.yaml', bytes: Buffer.from(text) }]);
      if (result.desired === null) {
        invalid += 1;
        expect(result.issues.length).toBeGreaterThan(0);
        for (const issue of result.issues) {
          expect(issue.line).toBeGreaterThanOrEqual(1);
          expect(issue.column).toBeGreaterThanOrEqual(1);
          expect(issue.message.length).toBeGreaterThan(0);
        }
      }
    }
    expect(invalid).toBeGreaterThan(100);
  });
});
