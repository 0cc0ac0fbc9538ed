import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runMain, until } from '../helpers/cli.js';
import { startDaemonInProcess, type InProcessDaemon } from '../helpers/daemon.js';
import { baseSeed, TOKEN, withEmulator } from '../helpers/emulator.js';

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * `docsync suspend|resume` talks to a running daemon process over HTTP, behind its UI auth; the
 * suspension outlives a restart of the daemon (its state folder). Errors are one line with a code:
 * credentials refused, unknown organization, no daemon.
 */
it('suspends and resumes an organization of a running daemon, across a restart', async () => {
  const emu = await withEmulator({ seed: baseSeed(1) });
  const dir = mkdtempSync(join(tmpdir(), 'docsync-suspend-cli-'));
  const daemons: InProcessDaemon[] = [];
  try {
    mkdirSync(join(dir, 'config'));
    writeFileSync(
      join(dir, 'config', 'org.yaml'),
      'organization: org_t\ncustomFields:\n  - { name: a, type: text }\n',
    );
    const authFile = join(dir, 'ui-auth');
    writeFileSync(authFile, 'ops:s3cret-ui-pass\n');
    const env = { DOCSYNC_API_URL: emu.url, DOCSYNC_TOKEN: TOKEN, DOCSYNC_STATE_DIR: join(dir, 'state') };
    const args = [
      '--config',
      join(dir, 'config'),
      '--mode',
      'apply',
      '--interval',
      '1h',
      '--ui-auth-file',
      authFile,
    ];
    const start = async () => {
      const d = await startDaemonInProcess(args, env);
      daemons.push(d);
      return d;
    };
    const authorization = `Basic ${Buffer.from('ops:s3cret-ui-pass').toString('base64')}`;
    const org = async (d: InProcessDaemon) =>
      (await fetch(`${d.url}/api/orgs/org_t`, { headers: { authorization } })).json() as Promise<{
        controls?: { suspended: boolean };
      }>;
    const cli = (action: string, ...more: string[]) => runMain([action, '--org', 'org_t', ...more]);

    const first = await start();
    await until(async () => (await org(first)).controls !== undefined, 30_000);

    const refused = await cli('suspend', '--daemon', first.url);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^error: the daemon at http:\/\/127\.0\.0\.1:\d+ refused: credentials required .*\[daemon-refused\]\n$/,
    );

    const unknown = await runMain([
      'suspend',
      '--org',
      'org_nope',
      '--daemon',
      first.url,
      '--ui-auth-file',
      authFile,
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/unknown organization org_nope.*\[unknown-organization\]\n$/);

    const suspended = await cli('suspend', '--daemon', first.url, '--ui-auth-file', authFile);
    expect(suspended.stderr).toBe('');
    expect(suspended.stdout).toMatch(
      /^org_t suspended \(since .*\): the daemon applies nothing to it until docsync resume --org org_t/,
    );
    expect(suspended.code).toBe(0);

    await first.stop();
    const second = await start();
    await until(async () => (await org(second)).controls !== undefined, 30_000);
    expect((await org(second)).controls).toMatchObject({ suspended: true });

    const resumed = await cli('resume', '--daemon', second.url, '--ui-auth-file', authFile);
    expect(resumed.stdout).toBe('org_t resumed: the daemon applies to it again\n');
    // The answer to GET may trail the resume by a status refresh on a loaded machine: wait for it,
    // then show the whole answer if it never comes.
    let afterResume = await org(second);
    await until(async () => (afterResume = await org(second)).controls?.suspended === false, 10_000).catch(
      () => undefined,
    );
    expect(afterResume.controls, JSON.stringify(afterResume)).toMatchObject({ suspended: false });

    const gone = await cli('suspend', '--daemon', `http://127.0.0.1:${await closedPort()}`);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(
      /^error: cannot reach the daemon at .*ECONNREFUSED.*\[daemon-unreachable\]\n$/,
    );

    for (const out of [refused, unknown, suspended, resumed, gone]) {
      expect(out.stdout + out.stderr).not.toContain('s3cret-ui-pass');
      expect(out.stderr).not.toMatch(/\n\s+at /);
    }
  } finally {
    for (const d of daemons) {
      await d.stop();
    }
    await emu.close();
    rmSync(dir, { recursive: true, force: true });
  }
}, 90_000);
