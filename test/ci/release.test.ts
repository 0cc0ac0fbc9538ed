import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { changelogSection } from '../../scripts/changelog-section.mjs';
import { ROOT } from '../helpers/cli.js';

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const version = (JSON.parse(read('package.json')) as { version: string }).version;

function run(cmd: string, args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: ROOT, env: { ...process.env, GITHUB_OUTPUT: '' } });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

describe('CHANGELOG.md and the release notes', () => {
  const sample = [
    '# Changelog',
    '',
    '## [Unreleased]',
    '',
    '- next',
    '',
    '## [1.2.10] - 2026-12-01',
    '',
    '### Fixed',
    '',
    '- ten',
    '',
    '## [1.2.1] - 2026-11-01',
    '',
    '- one',
    '',
    '[Unreleased]: https://example.com/compare/v1.2.10...HEAD',
    '[1.2.10]: https://example.com/v1.2.10',
    '',
  ].join('\n');

  it('the section of a tag, without its heading, up to the next version or the link list', () => {
    expect(changelogSection(sample, 'v1.2.10')).toBe('### Fixed\n\n- ten');
    expect(changelogSection(sample, '1.2.1')).toBe('- one');
    expect(changelogSection(sample, 'v1.2')).toBeUndefined();
    expect(changelogSection(sample, 'v2.0.0')).toBeUndefined();
  });

  it("is Keep a Changelog: Unreleased first, then this version's section with notes", () => {
    const text = read('CHANGELOG.md');
    const headings = [...text.matchAll(/^## \[([^\]]+)\]/gm)].map((m) => m[1]);
    expect(headings[0]).toBe('Unreleased');
    expect(headings).toContain(version);
    expect(changelogSection(text, `v${version}`)).toMatch(/^### Added$/m);
    expect(changelogSection(text, 'Unreleased')).toMatch(/^- The GitHub Action is a JavaScript action/m);
  });

  // Printing a tag's notes (exit 0, the notes and nothing else) is the dry run's first step, below.
  it('the script fails, naming the section, when a tag has no notes', async () => {
    const missing = await run(process.execPath, ['scripts/changelog-section.mjs', 'v99.0.0']);
    expect(missing.code).toBe(1);
    expect(missing.out).toBe('error: CHANGELOG.md has no section "## [99.0.0]" with notes\n');
  });
});

describe('the release workflow', () => {
  const release = parse(read('.github/workflows/release.yml'));

  it('commits the bundle to the tag, moves the major tag, releases with the notes and the bundle attached', () => {
    const steps = release.jobs.action.steps as { run?: string; env?: Record<string, string> }[];
    expect(release.jobs.action.needs).toBe('check');
    expect(release.jobs.action.permissions.contents).toBe('write');
    const runs = steps.map((s) => s.run ?? '').join('\n');
    expect(runs).toContain('bash scripts/release-action.sh "$GITHUB_REF_NAME" "$GITHUB_SHA"');
    expect(runs).toContain('git push --force origin "refs/tags/$GITHUB_REF_NAME" "refs/tags/$MAJOR"');
    expect(runs).toMatch(
      /node scripts\/changelog-section\.mjs "\$GITHUB_REF_NAME" > "\$RUNNER_TEMP\/notes\.md"/,
    );
    expect(runs).toMatch(
      /gh release create "\$GITHUB_REF_NAME" dist-action\/index\.js dist-action\/THIRD-PARTY-NOTICES\.txt --verify-tag/,
    );
    const checkRuns = (release.jobs.check.steps as { run?: string }[]).map((s) => s.run ?? '').join('\n');
    expect(checkRuns).toContain('node scripts/changelog-section.mjs "$GITHUB_REF_NAME"');
  });

  it('dry run: the steps that publish nothing pass on a scratch clone of HEAD (tags moved, bundle and its notices committed)', async () => {
    const r = await run('bash', ['scripts/release-dry-run.sh']);
    expect(r.code, r.out).toBe(0);
    // scripts/changelog-section.mjs prints the notes of the tag, all of them and nothing else (from
    // the clone of HEAD: HEAD's CHANGELOG.md).
    const changelog = execFileSync('git', ['show', 'HEAD:CHANGELOG.md'], { cwd: ROOT, encoding: 'utf8' });
    expect(r.out).toContain(
      `== release notes of v${version} (CHANGELOG.md)\n${changelogSection(changelog, version)}\n== action bundle and tags\n`,
    );
    expect(r.out).toMatch(new RegExp(`tagged [0-9a-f]+ as v${version} and v${version.split('.')[0]} `));
    expect(r.out).toContain('dist-action/index.js is what the sources build (commit ');
    // The npm package, packed once here for the whole suite (test/ci/packaging.test.ts relies on it):
    // what the CLI reads at run time (src/cli/demo.ts: the demo's seed and config), no sources or tests.
    expect(r.out).toMatch(new RegExp(`^docsync@${version}: \\d+ files, `, 'm'));
    expect(r.out).toContain(
      'package.json, README.md, examples/emulator-seed.yaml, config/demo.yaml, schema/docsync.schema.json among them; no sources, tests, scripts or action bundle\n',
    );
    expect(r.out).toMatch(/^dry run passed: would push /m);
  }, 120_000);
});
