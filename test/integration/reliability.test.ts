import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadConfigFromBuffers } from '../../src/config/load.js';
import { ApiError } from '../../src/api/errors.js';
import { mutate } from '../helpers/mutate.js';
import type { Daemon } from '../../src/daemon/daemon.js';
import { createMetrics } from '../../src/daemon/metrics.js';
import { startDaemonServer } from '../../src/daemon/server.js';
import { createLogger } from '../../src/log/logger.js';
import { makePlan } from '../../src/pipeline/plan-run.js';
import { client, exampleSeed, TOKEN, withEmulator, writes } from '../helpers/emulator.js';
import { ROOT, runMain, until } from '../helpers/cli.js';
import { startDaemonInProcess, startDaemonProcess } from '../helpers/daemon.js';
import { githubMock } from '../helpers/github-mock.js';
import { rng } from '../helpers/random-state.js';

const config = join(ROOT, 'config');
const demo = readFileSync(join(config, 'demo.yaml'), 'utf8');

describe('dry runs never write', () => {
  it('validate, plan, drift, export and the daemon in plan mode send only GET requests', async () => {
    const emu = await withEmulator({ seed: exampleSeed() });
    const state = mkdtempSync(join(tmpdir(), 'docsync-dry-'));
    const env = { DOCSYNC_API_URL: emu.url, DOCSYNC_TOKEN: TOKEN, DOCSYNC_STATE_DIR: state };
    try {
      // Each command's exit code is known: the config is not applied yet, so drift reports 2.
      const commands: [string[], number][] = [
        [['validate', '--config', config], 0],
        [['plan', '--config', config], 0],
        [['plan', '--config', config, '--format', 'json', '--out', join(state, 'p.json')], 0],
        [['drift', '--config', config, '--format', 'markdown'], 2],
        [['export', '--org', 'org_demo', '--out', join(state, 'export')], 0],
      ];
      const results = await Promise.all(commands.map(([args]) => runMain(args, env)));
      expect(results.map((r) => r.code)).toEqual(commands.map(([, code]) => code));
      const daemon = await startDaemonInProcess(
        ['--config', config, '--mode', 'plan', '--drift-cron', '* * * * * *', '--interval', '1s'],
        env,
      );
      await until(async () => {
        const s = await daemon.status().catch(() => null);
        return s?.lastSync?.result === 'planned' && s?.lastDrift?.drifted === true;
      }, 30_000);
      await daemon.stop();
      expect(emu.requests().length).toBeGreaterThan(10);
      expect(writes(emu)).toEqual([]);
    } finally {
      await emu.close();
    }
  }, 90_000);
});

/**
 * `fn` (synchronous) with no stack captured for the errors made while it runs. The YAML parser makes
 * an error object for each problem it finds and the loader reads only its message and position:
 * the 500 mutations report 7,496 issues, and capturing a stack for each was a tenth of the loop's
 * CPU, read by nobody.
 */
function withoutStacks<T>(fn: () => T): T {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return fn();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

describe('hostile configuration', () => {
  it('500 seeded mutations: each is valid or has located errors; valid ones plan without a write', async () => {
    const emu = await withEmulator({ seed: exampleSeed() });
    const api = client(emu);
    const random = rng(Number(process.env['DOCSYNC_HOSTILE_SEED'] ?? 31));
    let valid = 0;
    let planned = 0;
    const distinct: unknown[] = [];
    try {
      for (let i = 0; i < 500; i += 1) {
        const result = withoutStacks(() =>
          loadConfigFromBuffers([{ file: 'm.yaml', bytes: Buffer.from(mutate(demo, random)) }]),
        );
        if (!result.desired) {
          expect(result.issues.every((x) => x.line >= 1 && x.column >= 1 && x.message.length > 0)).toBe(true);
          continue;
        }
        valid += 1;
        // The same desired state plans the same way against the same emulator (never written): each
        // distinct one is planned once (of seed 31's 29 valid mutations, 19 are distinct).
        if (distinct.some((d) => isDeepStrictEqual(d, result.desired))) continue;
        distinct.push(result.desired);
        // A mutation may name a space that does not exist: the read fails clearly, and nothing is written.
        const failure = await makePlan(api, result.desired).then(
          () => undefined,
          (error: unknown) => error,
        );
        if (failure === undefined) planned += 1;
        else expect(failure).toBeInstanceOf(ApiError);
      }
    } finally {
      await api.close();
      await emu.close();
    }
    expect(valid).toBeGreaterThan(0);
    // Both paths ran: some valid mutations planned, not only failed reads.
    expect(planned).toBeGreaterThan(0);
    expect(writes(emu)).toEqual([]);
  });

  it('an alias bomb, a 10 MB file, deep nesting, invalid UTF-8 and a binary file: exit 1, located, no stack trace, no write', async () => {
    const emu = await withEmulator({ seed: exampleSeed() });
    const cases: Record<string, Buffer> = {
      'alias-bomb.yaml': Buffer.from(
        `a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n${['b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'].map((k, i) => `${k}: &${k} [${Array(9).fill(`*${'abcdefgh'[i]}`).join(',')}]`).join('\n')}\norganization: org_demo\n`,
      ),
      'huge.yaml': Buffer.concat([
        Buffer.from('organization: org_demo\nteams:\n'),
        Buffer.alloc(10 * 1024 * 1024, '  - title: x\n'),
      ]),
      'deep.yaml': Buffer.from(`organization: org_demo\nx: ${'['.repeat(5000)}${']'.repeat(5000)}\n`),
      'utf8.yaml': Buffer.concat([
        Buffer.from('organization: org_demo\nteams:\n  - title: '),
        Buffer.from([0xff, 0xfe, 0xfd]),
        Buffer.from('\n'),
      ]),
      'binary.yml': Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00, 0x00, 0x00]),
    };
    try {
      // Five files, two commands each.
      const runs = Object.entries(cases).flatMap(([name, bytes]) => {
        const dir = mkdtempSync(join(tmpdir(), 'docsync-hostile-'));
        writeFileSync(join(dir, name), bytes);
        return ['validate', 'plan'].map(async (command) => ({
          name,
          command,
          res: await runMain([command, '--config', dir], { DOCSYNC_API_URL: emu.url, DOCSYNC_TOKEN: TOKEN }),
        }));
      });
      for (const { name, command, res } of await Promise.all(runs)) {
        expect(res.code, `${name} ${command}`).toBe(1);
        expect(res.stderr).toMatch(new RegExp(`${name.replace('.', '\\.')}:\\d+:\\d+: error\\[`));
        expect(res.stderr).not.toMatch(/\n\s+at .+\(.+:\d+:\d+\)/);
      }
      expect(emu.requests()).toEqual([]);
    } finally {
      await emu.close();
    }
  }, 90_000);
});

describe('secret canary', () => {
  it('the token and share-link URLs never appear in any output, log, plan, report or comment', async () => {
    const CANARY = 'canary-token-7f3a9c1e5b';
    const emu = await withEmulator({ seed: exampleSeed(), token: CANARY });
    const gh = await githubMock('ghs_canary_github_token');
    const dir = mkdtempSync(join(tmpdir(), 'docsync-canary-'));
    const env = {
      DOCSYNC_API_URL: emu.url,
      DOCSYNC_TOKEN: CANARY,
      DOCSYNC_STATE_DIR: dir,
      DOCSYNC_LOG_LEVEL: 'debug',
      GITHUB_TOKEN: 'ghs_canary_github_token',
      GITHUB_REPOSITORY: 'acme/docs',
    };
    const outputs: string[] = [];
    const run = async (args: string[], extra: Record<string, string> = {}) => {
      const res = await runMain(args, { ...env, ...extra });
      outputs.push(res.stdout, res.stderr);
      return res;
    };
    try {
      await run(['apply', '--config', config, '--yes']);
      // Now there are share links with secret URLs; read them from the emulator's own answers.
      const links = emu.state().organizations[0]!.sites.flatMap((s) => s.shareLinks.map((l) => l.token));
      expect(links.length).toBeGreaterThan(0);
      await Promise.all([
        run(['validate', '--config', config]),
        run(['plan', '--config', config, '--format', 'json', '--out', join(dir, 'plan.json')]),
        run(['plan', '--config', config, '--format', 'markdown']),
        run(['drift', '--config', config, '--out', join(dir, 'drift.md')]),
        run(['export', '--org', 'org_demo', '--out', join(dir, 'export')]),
        run(['comment', '--config', config, '--pr', '1', '--github-api-url', gh.url]),
        run(['plan', '--config', config], { DOCSYNC_TOKEN: `${CANARY}-wrong` }),
      ]);
      // A process: its secret registry starts empty (in this one, the commands above filled it),
      // so the daemon must register the token, the webhook secret and the share links itself.
      const daemon = await startDaemonProcess(
        [
          '--config',
          config,
          '--mode',
          'apply',
          '--drift-cron',
          '* * * * * *',
          '--drift-report',
          join(dir, 'report.json'),
          '--webhook-secret',
          'whsec-canary-123',
        ],
        env,
      );
      await until(async () => (await daemon.status().catch(() => null))?.lastDrift, 30_000);
      outputs.push(
        await (await fetch(`${daemon.url}/status`)).text(),
        await (await fetch(`${daemon.url}/metrics`)).text(),
      );
      daemon.child.kill('SIGTERM');
      await daemon.exit;
      outputs.push(daemon.stdout(), daemon.stderr());
      const files = (d: string): string[] =>
        readdirSync(d).flatMap((f) =>
          statSync(join(d, f)).isDirectory() ? files(join(d, f)) : [join(d, f)],
        );
      for (const f of files(dir)) outputs.push(readFileSync(f, 'utf8'));
      outputs.push(...gh.comments.map((c) => c.body));
      const all = outputs.join('\n');
      expect(all.length).toBeGreaterThan(10_000);
      expect(all).not.toContain(CANARY);
      expect(all).not.toContain('ghs_canary_github_token');
      expect(all).not.toContain('whsec-canary-123');
      for (const token of links) expect(all).not.toContain(token);
      expect(all).not.toContain('share=');
    } finally {
      await gh.close();
      await emu.close();
    }
  }, 120_000);
});

describe('webhook hardening', () => {
  it('cuts off a slow body with 408 within the timeout, and refuses bad signatures', async () => {
    const metrics = createMetrics();
    const triggered: string[] = [];
    const fake = { ready: true, status: {}, trigger: (k: string) => triggered.push(k) } as unknown as Daemon;
    const server = await startDaemonServer(fake, metrics, createLogger('silent'), {
      port: 0,
      host: '127.0.0.1',
      webhookSecret: 's3cret',
      bodyTimeoutMs: 300,
    });
    try {
      const t0 = Date.now();
      const status = await new Promise<string>((resolve, reject) => {
        const socket = connect(server.port, '127.0.0.1', () => {
          socket.write('POST /hooks/git HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"ref":');
        });
        let data = '';
        socket.on('data', (d) => (data += d.toString()));
        socket.on('close', () => resolve(data.split('\r\n')[0] ?? ''));
        socket.on('error', reject);
      });
      expect(status).toContain('408');
      expect(Date.now() - t0).toBeLessThan(3000);
      const res = await fetch(`${server.url}/hooks/git`, {
        method: 'POST',
        body: '{}',
        headers: { 'x-hub-signature-256': 'sha256=00' },
      });
      expect(res.status).toBe(401);
      expect(triggered).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

describe('one writer: the daemon and a CLI apply', () => {
  it('a CLI apply refuses while the daemon applies to the same organization', async () => {
    const emu = await withEmulator({ seed: exampleSeed() });
    const state = mkdtempSync(join(tmpdir(), 'docsync-lock2-'));
    const env = { DOCSYNC_API_URL: emu.url, DOCSYNC_TOKEN: TOKEN, DOCSYNC_STATE_DIR: state };
    // The daemon's first write waits until released: the CLI's apply runs while the daemon
    // certainly holds the organization, however slowly this machine starts processes.
    const hold = emu.holdWrites();
    // Two processes: the daemon's lock names a live process other than the CLI's.
    const daemon = await startDaemonProcess(['--config', config, '--mode', 'apply', '--interval', '1h'], env);
    try {
      await until(() => hold.waiting() > 0, 60_000, 20);
      const cli = await runMain(['apply', '--config', config, '--yes'], env);
      expect(cli.code).toBe(1);
      expect(cli.stderr).toMatch(/organization org_demo is locked by docsync daemon/);
      hold.release();
      await until(async () => (await daemon.status())?.lastSync?.result === 'applied', 60_000);
      const after = await runMain(['apply', '--config', config, '--yes'], env);
      expect(after.code).toBe(0);
      expect(after.stdout).toContain('No changes');
    } finally {
      hold.release();
      daemon.child.kill('SIGTERM');
      await daemon.exit;
      await emu.close();
    }
  }, 90_000);
});
