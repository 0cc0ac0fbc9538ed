import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { distIsCurrent } from '../../scripts/dist-current.mjs';

describe('npm start builds only when dist/ is stale', () => {
  it('compares dist/cli.js with the newest source and tsconfig', () => {
    const root = mkdtempSync(join(tmpdir(), 'docsync-start-'));
    mkdirSync(join(root, 'src', 'cli'), { recursive: true });
    const source = join(root, 'src', 'cli', 'main.ts');
    const test = join(root, 'src', 'cli', 'main.test.ts');
    writeFileSync(source, '');
    writeFileSync(test, '');
    writeFileSync(join(root, 'tsconfig.json'), '{}');
    const at = (file: string, seconds: number) => utimesSync(file, seconds, seconds);
    at(source, 1000);
    at(test, 1000);
    at(join(root, 'tsconfig.json'), 1000);
    expect(distIsCurrent(root)).toBe(false); // never built

    mkdirSync(join(root, 'dist'));
    const built = join(root, 'dist', 'cli.js');
    writeFileSync(built, '');
    at(built, 2000);
    expect(distIsCurrent(root)).toBe(true);

    at(test, 3000); // tests are not part of the build
    expect(distIsCurrent(root)).toBe(true);
    at(source, 3000);
    expect(distIsCurrent(root)).toBe(false);
    at(source, 1000);
    at(join(root, 'tsconfig.json'), 3000);
    expect(distIsCurrent(root)).toBe(false);
  });
});
