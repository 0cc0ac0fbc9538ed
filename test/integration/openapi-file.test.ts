import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { capabilitiesOf } from '../../src/api/capabilities.js';
import { applyPlan } from '../../src/apply/run.js';
import { loadConfig } from '../../src/config/load.js';
import type { Emulator } from '../../src/emulator/server.js';
import { exportOrganization } from '../../src/export/to-config.js';
import { TEXT_MAX } from '../../src/kinds/openapi-spec.js';
import { readScoped } from '../../src/live/read.js';
import { everything } from '../../src/live/scope.js';
import { makePlan } from '../../src/pipeline/plan-run.js';
import { redact } from '../../src/secrets/registry.js';
import { runMain } from '../helpers/cli.js';
import { baseSeed, client, withEmulator, writes } from '../helpers/emulator.js';

/**
 * An OpenAPI spec's text read from a file of the config repository (issue 30, `source: { file }`):
 * confined as decision 13 says (inside the repository, no link, a regular file, within the text's
 * limit), a located error otherwise; a document, not a secret; planned, applied and compared as
 * `{ text }` is, by hash.
 */
const SPEC = (title: string) => `openapi: 3.1.0\ninfo: { title: ${title}, version: '1' }\npaths: {}\n`;

/** A git repository with `config/org.yaml` naming `file` as the spec's source, and `specs/petstore.yaml`. */
function repo(file: string, spec = SPEC('Petstore')): { root: string; config: string } {
  const root = mkdtempSync(join(tmpdir(), 'docsync-openapi-file-'));
  execFileSync('git', ['init', '-q', root]);
  mkdirSync(join(root, 'config'));
  mkdirSync(join(root, 'specs'));
  writeFileSync(join(root, 'specs', 'petstore.yaml'), spec);
  writeFileSync(
    join(root, 'config', 'org.yaml'),
    `organization: org_t\nopenapi:\n  - slug: petstore\n    source:\n      file: ${file}\n`,
  );
  return { root, config: join(root, 'config') };
}

const issuesOf = async (config: string, flavor: 'current' | 'seed' = 'current') =>
  (await loadConfig(config, config, { capabilities: capabilitiesOf(flavor) })).issues.map(
    (i) => `${i.file}:${i.line}:${i.column} ${i.code} ${i.message}`,
  );

describe('openapi[].source.file: validation', () => {
  it('refuses a file outside the repository, at the key', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'docsync-openapi-outside-'));
    writeFileSync(join(outside, 'spec.yaml'), SPEC('Outside'));
    const { config } = repo(join(outside, 'spec.yaml'));
    expect(await issuesOf(config)).toEqual([
      expect.stringMatching(
        /^org\.yaml:5:7 indirect-outside-root .*spec\.yaml is outside the config repository/,
      ),
    ]);
  });

  it('refuses a symbolic link, even one pointing inside the repository', async () => {
    const { root, config } = repo('../specs/link.yaml');
    symlinkSync(join(root, 'specs', 'petstore.yaml'), join(root, 'specs', 'link.yaml'));
    expect(await issuesOf(config)).toEqual([
      expect.stringMatching(
        /^org\.yaml:5:7 indirect-symlink \.\.\/specs\/link\.yaml is reached through a symbolic link/,
      ),
    ]);
  });

  it('refuses a link escaping the repository', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'docsync-openapi-outside-'));
    writeFileSync(join(outside, 'spec.yaml'), SPEC('Outside'));
    const { root, config } = repo('../specs/away.yaml');
    symlinkSync(join(outside, 'spec.yaml'), join(root, 'specs', 'away.yaml'));
    expect(await issuesOf(config)).toEqual([
      expect.stringMatching(/^org\.yaml:5:7 indirect-outside-root \.\.\/specs\/away\.yaml is outside/),
    ]);
  });

  it('refuses a directory, a missing file, an empty one and one over the limit', async () => {
    const dir = repo('../specs');
    expect(await issuesOf(dir.config)).toEqual([
      expect.stringMatching(/^org\.yaml:5:7 indirect-not-file \.\.\/specs is not a regular file/),
    ]);
    const missing = repo('../specs/missing.yaml');
    expect(await issuesOf(missing.config)).toEqual([
      expect.stringMatching(/^org\.yaml:5:7 read-failed cannot read \.\.\/specs\/missing\.yaml: ENOENT/),
    ]);
    const empty = repo('../specs/petstore.yaml', '  \n');
    expect(await issuesOf(empty.config)).toEqual([
      expect.stringMatching(/^org\.yaml:5:7 indirect-invalid-content \.\.\/specs\/petstore\.yaml is empty/),
    ]);
    const large = repo('../specs/petstore.yaml', `${SPEC('Large')}#${'x'.repeat(TEXT_MAX)}\n`);
    expect(await issuesOf(large.config)).toEqual([
      expect.stringMatching(
        /^org\.yaml:5:7 too-long \.\.\/specs\/petstore\.yaml is longer than 1000000 characters/,
      ),
    ]);
  });

  it('`docsync validate` prints the located error and no stack trace, and exits 1', async () => {
    const { config } = repo('../specs/missing.yaml');
    const run = await runMain(['validate', '--config', config], { DOCSYNC_API_FLAVOR: 'current' });
    expect(run.code).toBe(1);
    const out = run.stdout + run.stderr;
    expect(out).toMatch(/org\.yaml:5:7.*cannot read \.\.\/specs\/missing\.yaml: ENOENT/);
    expect(out).not.toMatch(/\n\s+at /);
  });

  it('is refused by the seed flavor (api.md has no text source), and is not a secret', async () => {
    const { config } = repo('../specs/petstore.yaml');
    expect(await issuesOf(config, 'seed')).toEqual([
      expect.stringMatching(/^org\.yaml:5:7 unsupported-by-api file is not in this API/),
    ]);
    const loaded = await loadConfig(config, config, { capabilities: capabilitiesOf('current') });
    expect(loaded.issues).toEqual([]);
    expect(loaded.desired!.organizations[0]!.openapi).toEqual([
      { slug: 'petstore', source: { text: SPEC('Petstore') } },
    ]);
    // A document, not a secret: output that quotes it is not redacted.
    expect(redact(`title: ${SPEC('Petstore')}`)).toContain("info: { title: Petstore, version: '1' }");
  });
});

let emu: Emulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

describe('openapi[].source.file against the emulator (current flavor)', () => {
  it('creates with the text, shows its hash, plans nothing after, updates when the file changes; export writes it inline', async () => {
    emu = await withEmulator({ seed: baseSeed(1), flavor: 'current' });
    const api = client(emu, { flavor: 'current' });
    try {
      const { root, config } = repo('../specs/petstore.yaml');
      const load = async () => {
        const r = await loadConfig(config, config, { capabilities: capabilitiesOf('current') });
        expect(r.issues).toEqual([]);
        return r.desired!;
      };
      const first = await makePlan(api, await load());
      expect(first.plan.errors).toEqual([]);
      expect(first.plan.changes.map((c) => [c.action, c.address])).toEqual([
        ['create', 'org_t/openapi/petstore'],
      ]);
      expect(JSON.stringify(first.plan.changes[0]!.after)).toMatch(/^\{"source":"sha256:[0-9a-f]{12}"\}$/);
      expect((await applyPlan(first.plan, api)).ok).toBe(true);
      expect(writes(emu)[0]!.method).toBe('POST');
      expect(emu.requests().find((r) => r.method === 'POST')!.body).toEqual({
        slug: 'petstore',
        source: { text: SPEC('Petstore') },
      });
      expect((await makePlan(api, await load())).plan.changes).toEqual([]);

      writeFileSync(join(root, 'specs', 'petstore.yaml'), SPEC('Petstore v2'));
      const changed = await makePlan(api, await load());
      expect(changed.plan.changes.map((c) => [c.action, c.address])).toEqual([
        ['update', 'org_t/openapi/petstore'],
      ]);
      expect((await applyPlan(changed.plan, api)).ok).toBe(true);
      expect((await makePlan(api, await load())).plan.changes).toEqual([]);

      const live = await readScoped(api, 'org_t', everything(), { secrets: new Map() });
      const files = exportOrganization({ ...live, spaces: [] }, undefined, new Map(), api.capabilities).files;
      expect(files.find((f) => f.path === 'organization.yaml')!.text).toContain('text: |');
    } finally {
      await api.close();
    }
  });
});
