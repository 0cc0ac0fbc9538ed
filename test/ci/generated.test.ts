import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generatedFiles, ROOT, staleAgainst, staleFiles } from '../../scripts/generate.js';

/**
 * Everything `npm run generate` writes (JSON Schema, configuration reference, the endpoint tables of
 * docs/compatibility.md, the golden cases' inputs) is committed as the code generates it: the same
 * check as `npm run generate -- --check`, in-process.
 */
describe('generated files', () => {
  it('are up to date (run npm run generate)', async () => {
    const stale = await staleFiles();
    expect(stale, `stale generated files: ${stale.join(', ')}; run npm run generate`).toEqual([]);
  }, 30_000);

  describe('the check', () => {
    const root = mkdtempSync(join(tmpdir(), 'docsync-generated-'));
    afterAll(() => rmSync(root, { recursive: true, force: true }));

    // The files as generated once (the check compares them with what is under a root).
    it('names each stale or missing file, and a golden case the generator no longer makes', async () => {
      const files = await generatedFiles();
      for (const f of files) cpSync(join(ROOT, f.path), join(root, f.path), { recursive: true });
      expect(staleAgainst(root, files)).toEqual([]);
      writeFileSync(join(root, 'docs/configuration.md'), 'edited by hand\n');
      const compatibility = files.find((f) => f.path === 'docs/compatibility.md')!.text;
      writeFileSync(join(root, 'docs/compatibility.md'), compatibility.replace('| yes ', '| no  '));
      rmSync(join(root, 'schema/docsync.schema.json'));
      cpSync(join(ROOT, 'test/fixtures/plans/create-everything'), join(root, 'test/fixtures/plans/gone'), {
        recursive: true,
      });
      expect(staleAgainst(root, files).sort()).toEqual([
        'docs/compatibility.md',
        'docs/configuration.md',
        'schema/docsync.schema.json',
        'test/fixtures/plans/gone/',
      ]);
    }, 30_000);
  });
});
