import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configJsonSchemaText } from './json-schema.js';

describe('schema/docsync.schema.json', () => {
  it('is generated from the zod schema and up to date (run `npm run schema`)', () => {
    const committed = readFileSync(new URL('../../schema/docsync.schema.json', import.meta.url), 'utf8');
    expect(committed).toBe(configJsonSchemaText());
  });
  it('is referenced by the example files for editors', () => {
    for (const file of ['../../config/demo.yaml', '../../examples/config/docsync.example.yaml'])
      expect(readFileSync(new URL(file, import.meta.url), 'utf8').split('\n')[0]).toMatch(
        /^# yaml-language-server: \$schema=.*docsync\.schema\.json$/,
      );
  });
});
