import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { VERSION } from '../version.js';
import { runMain } from '../../test/helpers/cli.js';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

const cli = runMain;

function configDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'docsync-settings-'));
  writeFileSync(join(dir, 'org.yaml'), 'organization: org_t\nteams:\n  - title: Writers\n');
  return dir;
}

/** One line, no stack trace. */
function oneLine(stderr: string): string {
  // Log lines (JSON off a terminal) are not the error.
  const lines = stderr
    .trim()
    .split('\n')
    .filter((l) => !l.startsWith('{'));
  expect(stderr).not.toMatch(/^\s+at /m);
  expect(lines, stderr).toHaveLength(1);
  return lines[0]!;
}

describe('settings are checked before any work, each error names the setting, the value and what is expected', () => {
  it('a bad DOCSYNC_LEASE_TTL does not break commands that do not use it', async () => {
    const env = { DOCSYNC_LEASE_TTL: 'abc' };
    expect(await cli(['validate', '--config', configDir()], env)).toMatchObject({ code: 0 });
    const version = await cli(['--version'], env);
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toBe(VERSION);
  });

  it('names the environment variable and its value', async () => {
    const dir = configDir();
    const ttl = await cli(['apply', '--config', dir], { DOCSYNC_LEASE_TTL: 'abc' });
    expect(ttl.code).toBe(1);
    expect(oneLine(ttl.stderr)).toMatch(/'abc'.*DOCSYNC_LEASE_TTL.*expected a duration such as 15s/);
    const conc = await cli(['plan', '--config', dir], { DOCSYNC_CONCURRENCY: 'abc' });
    expect(conc.code).toBe(1);
    expect(oneLine(conc.stderr)).toMatch(/'abc'.*DOCSYNC_CONCURRENCY.*expected a whole number from 1/);
    const url = await cli(['plan', '--config', dir], { DOCSYNC_API_URL: 'api.example.com' });
    expect(oneLine(url.stderr)).toMatch(/'api\.example\.com'.*DOCSYNC_API_URL.*expected an http\(s\) URL/);
  });

  it('names the flag and its value', async () => {
    const dir = configDir();
    const url = await cli(['plan', '--config', dir, '--api-url', 'not a url']);
    expect(url.code).toBe(1);
    expect(oneLine(url.stderr)).toMatch(/--api-url.*'not a url'.*expected an http\(s\) URL/);
    const interval = await cli(['daemon', '--config', dir, '--interval', 'soon']);
    expect(interval.code).toBe(1);
    expect(oneLine(interval.stderr)).toMatch(/--interval.*'soon'.*expected a duration/);
    const timeout = await cli(['plan', '--config', dir, '--timeout', '0']);
    expect(oneLine(timeout.stderr)).toMatch(/--timeout.*'0'.*expected a whole number from 1/);
  });

  it('--help shows defaults as they are written: 15s, not 15000', async () => {
    const help = await cli(['apply', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/--lease-ttl <duration>[\s\S]*?default: 15s/);
    expect(help.stdout).not.toContain('15000');
    const daemon = await cli(['daemon', '--help']);
    expect(daemon.stdout).toMatch(/--interval <duration>[\s\S]*?default: 60s/);
  });

  it('a user error is one line; --log-level debug adds the stack', async () => {
    const dir = configDir();
    const quiet = await cli(['plan', '--config', dir], { DOCSYNC_TOKEN: '', DOCSYNC_TOKEN_FILE: '' });
    expect(quiet.code).toBe(1);
    expect(oneLine(quiet.stderr)).toMatch(/^error: .*\[token-missing\]$/);
    const debug = await cli(['plan', '--config', dir, '--log-level', 'debug'], {
      DOCSYNC_TOKEN: '',
      DOCSYNC_TOKEN_FILE: '',
    });
    expect(debug.stderr).toMatch(/^\s+at /m);
  });
});
