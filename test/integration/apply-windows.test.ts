import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/server.js';
import { runMain } from '../helpers/cli.js';
import { baseSeed, TOKEN, withEmulator } from '../helpers/emulator.js';

/** `docsync apply` is a manual sync: a window that blocks manual syncs refuses it; manualSync lets it through. */
let emu: Emulator;
let dir: string;
beforeEach(async () => {
  emu = await withEmulator({ seed: baseSeed(1) });
  dir = mkdtempSync(join(tmpdir(), 'docsync-apply-windows-'));
  mkdirSync(join(dir, 'config'));
});
afterEach(async () => {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
});

const cli = (command: string, manualSync: boolean) => {
  writeFileSync(
    join(dir, 'config', 'org.yaml'),
    `organization: org_t
policy:
  syncWindows:
    - { kind: deny, schedule: "* * * * *", duration: 1h, manualSync: ${manualSync} }
customFields:
  - { name: a, type: text }
`,
  );
  return runMain(
    [
      command,
      '--config',
      join(dir, 'config'),
      '--api-url',
      emu.url,
      ...(command === 'apply' ? ['--yes'] : []),
    ],
    {
      DOCSYNC_TOKEN: TOKEN,
      DOCSYNC_STATE_DIR: join(dir, 'state'),
    },
  );
};

it('apply inside a deny window is refused, and passes with manualSync; plan says so in a note', async () => {
  const planned = await cli('plan', false);
  expect(planned.code).toBe(0);
  expect(planned.stderr).toMatch(
    /^note: docsync apply would be refused now: apply skipped: org_t: deny window "\* \* \* \* \*"/m,
  );
  const refused = await cli('apply', false);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toMatch(
    /refused: apply skipped: org_t: deny window "\* \* \* \* \*" \(1h, UTC\) open until .* \(policy\.syncWindows\)/,
  );
  expect(emu.requests().filter((r) => r.method !== 'GET')).toEqual([]);

  expect((await cli('plan', true)).stderr).not.toContain('note:');
  const passed = await cli('apply', true);
  expect(passed.code).toBe(0);
  expect(passed.stdout).toContain('verify: converged (re-read customFields)');
  expect(emu.state().organizations[0]!.customFields).toHaveLength(1);
});
