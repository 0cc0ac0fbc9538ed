import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigFileCache, type FileResult } from './file-cache.js';
import { loadConfig } from './load.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'docsync-cache-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const teams = (titles: string[]) =>
  `organization: org_1\nteams:\n${titles.map((t) => `  - title: ${t}`).join('\n')}\n`;
const sites = (title: string) => `organization: org_1\nsites:\n  - title: ${title}\n`;

describe('ConfigFileCache in loadConfig', () => {
  it('re-parses only the file that changed, and loads what an uncached load loads', async () => {
    const dir = folder({ 'a.yaml': teams(['Docs']), 'b.yaml': sites('Public'), 'c.yaml': sites('Internal') });
    const cache = new ConfigFileCache();
    await loadConfig(dir, dir, { cache });
    expect([cache.hits, cache.misses]).toEqual([0, 3]);

    writeFileSync(join(dir, 'a.yaml'), teams(['Docs', 'Writers']));
    const cached = await loadConfig(dir, dir, { cache });
    expect([cache.hits, cache.misses]).toEqual([2, 4]);
    expect(cached.desired?.organizations[0]?.teams?.map((t) => t.title)).toEqual(['Docs', 'Writers']);
    expect(cached).toEqual(await loadConfig(dir, dir));
  });

  it('keeps reporting a broken file it has seen, and forgets removed files', async () => {
    const dir = folder({ 'a.yaml': teams(['Docs']), 'b.yaml': 'organization: org_1\nsites: [\n' });
    const cache = new ConfigFileCache();
    const first = await loadConfig(dir, dir, { cache });
    const again = await loadConfig(dir, dir, { cache });
    expect(first.desired).toBeNull();
    expect(again.issues).toEqual(first.issues);
    expect(cache.hits).toBe(2);

    rmSync(join(dir, 'b.yaml'));
    writeFileSync(join(dir, 'b.yaml'), sites('Public'));
    const fixed = await loadConfig(dir, dir, { cache });
    expect(fixed.desired?.organizations[0]?.sites?.map((s) => s.title)).toEqual(['Public']);
  });

  it("keeps a file's validated config and where its keys are, not a second copy of the file as parsed YAML (decision 42)", async () => {
    const dir = folder({ 'a.yaml': teams(['Docs', 'Writers']), 'b.yaml': sites('Public') });
    const results: FileResult[] = [];
    class Watched extends ConfigFileCache {
      override get(file: string, bytes: Buffer, compute: () => FileResult): FileResult {
        const result = super.get(file, bytes, compute);
        results.push(result);
        return result;
      }
    }
    const loaded = await loadConfig(dir, dir, { cache: new Watched() });
    expect(loaded.issues).toEqual([]);
    expect(results).toHaveLength(2);
    for (const r of results) {
      if ('issues' in r) throw new Error('a file failed');
      expect(r.yaml.value).toBeUndefined();
      expect(r.config.organization).toBe('org_1');
      // Positions are still there, from the file's text.
      expect(r.yaml.lines.linePos(0)).toEqual({ line: 1, col: 1 });
    }
  });
});
