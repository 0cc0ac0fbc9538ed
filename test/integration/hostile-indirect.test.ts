import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/server.js';
import { baseSeed, TOKEN, withEmulator } from '../helpers/emulator.js';
import { runCli } from '../helpers/cli.js';

let emu: Emulator;
beforeEach(async () => {
  emu = await withEmulator({ seed: baseSeed() });
});
afterEach(async () => emu.close());

it('apply refuses indirect values that would send host secrets, before any network call', async () => {
  const base = mkdtempSync(join(tmpdir(), 'docsync-hostile-'));
  const repo = join(base, 'repo');
  mkdirSync(join(repo, '.git'), { recursive: true });
  mkdirSync(join(repo, 'config'));
  writeFileSync(join(base, 'host-secret.txt'), 'HOST-FILE-SECRET-3141\n');
  writeFileSync(
    join(repo, 'config', 'org.yaml'),
    [
      'organization: org_t',
      'saml:',
      '  - label: Token',
      '    certificate: { env: DOCSYNC_TOKEN }',
      '  - label: File',
      '    certificate: { file: ../../host-secret.txt }',
      '',
    ].join('\n'),
  );
  const result = await runCli(['apply', '--yes', '--config', join(repo, 'config')], {
    DOCSYNC_API_URL: emu.url,
    DOCSYNC_TOKEN: TOKEN,
    DOCSYNC_STATE_DIR: join(base, 'state'),
    DOCSYNC_LOG_LEVEL: 'warn',
  });
  expect(result.code).toBe(1);
  expect(result.stderr).toMatch(/org\.yaml:4:\d+: error\[indirect-env-not-allowed\] saml\[0\]\.certificate/);
  expect(result.stderr).toMatch(/org\.yaml:6:\d+: error\[indirect-outside-root\] saml\[1\]\.certificate/);
  expect(emu.requests()).toEqual([]);
  const everything = result.stdout + result.stderr + JSON.stringify(emu.state());
  expect(everything).not.toContain(TOKEN);
  expect(everything).not.toContain('HOST-FILE-SECRET-3141');
});
