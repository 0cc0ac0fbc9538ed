import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, expect, it } from 'vitest';
import { Daemon } from '../../src/daemon/daemon.js';
import { createMetrics } from '../../src/daemon/metrics.js';
import { createLogger } from '../../src/log/logger.js';
import { loadNotifications } from '../../src/notify/settings.js';
import { notifyPolicy } from '../../src/notify/notifier.js';
import { GitSource } from '../../src/source/git-source.js';
import { runMain, until } from '../helpers/cli.js';
import { baseSeed, call, client, withEmulator } from '../helpers/emulator.js';
import { makeRepo } from '../helpers/git.js';
import { githubMock } from '../helpers/github-mock.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const HMAC_KEY = 'notify-it-hmac-key-2f9c1a';
const GH_TOKEN = 'ghp_notifyittoken8d7e6f';
const SLACK_KEY = 'slackkeyNOTIFYit42';
const TEAMS_KEY = 'teamskeyNOTIFYit43';

type Received = { path: string; headers: IncomingHttpHeaders; raw: string; body: any };

/** One local receiver for the Slack, Teams and HMAC webhooks: every request, as it came. */
async function receiver(): Promise<{ url: string; got: Received[] }> {
  const got: Received[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (d: Buffer) => (raw += d.toString()));
    req.on('end', () => {
      got.push({ path: req.url ?? '', headers: req.headers, raw, body: JSON.parse(raw) });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, got };
}

it('the daemon notifies Slack, Teams, an HMAC webhook and GitHub statuses: filtered, deduplicated, signed, without secrets', async () => {
  Object.assign(notifyPolicy, { backoffBaseMs: 1, backoffCapMs: 5, timeoutMs: 2_000 });
  cleanups.push(async () => {
    for (const key of ['backoffBaseMs', 'backoffCapMs'])
      delete (notifyPolicy as Record<string, unknown>)[key];
    notifyPolicy.timeoutMs = 20_000;
  });
  const emu = await withEmulator({ seed: baseSeed() });
  cleanups.push(() => emu.close());
  const hooks = await receiver();
  const gh = await githubMock(GH_TOKEN);
  cleanups.push(() => gh.close());

  // Settings: secrets in files beside the notifications file; Teams takes errors only.
  const dir = mkdtempSync(join(tmpdir(), 'docsync-notify-it-'));
  writeFileSync(join(dir, 'slack-url'), `${hooks.url}/slack/${SLACK_KEY}\n`);
  writeFileSync(join(dir, 'teams-url'), `${hooks.url}/teams/${TEAMS_KEY}\n`);
  writeFileSync(join(dir, 'hmac-key'), `${HMAC_KEY}\n`);
  writeFileSync(join(dir, 'gh-token'), `${GH_TOKEN}\n`);
  writeFileSync(
    join(dir, 'notifications.yaml'),
    `providers:
  - { name: ops, type: slack, addressFile: slack-url }
  - { name: oncall, type: msteams, addressFile: teams-url, severity: error }
  - { name: audit, type: generic-hmac, address: "${hooks.url}/hmac", secretFile: hmac-key }
  - { name: commits, type: github, address: acme/docs-config, secretFile: gh-token, apiUrl: "${gh.url}" }
`,
  );
  const notifications = await loadNotifications(join(dir, 'notifications.yaml'));

  const repo = makeRepo({
    'config/org.yaml': 'organization: org_t\npolicy:\n  prune: true\nteams:\n  - title: Writers\n',
  });
  const sha = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repo.dir, encoding: 'utf8' }).trim();
  let logs = '';
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      logs += chunk.toString();
      done();
    },
  });
  const api = client(emu, { maxAttempts: 1 });
  const daemon = new Daemon(
    new GitSource({ url: repo.url, branch: 'main', path: 'config', workDir: join(dir, 'git') }),
    api,
    createLogger('debug', sink),
    createMetrics(),
    {
      mode: 'apply',
      intervalMs: 3_600_000,
      selfHeal: false,
      allowDeletes: 0,
      stateDir: join(dir, 'state'),
      notifications,
      // The shorthand: one Slack provider with the drift events.
      notifyUrl: `${hooks.url}/legacy`,
      reminderMs: 3_600_000,
      stopTimeoutMs: 1_000,
    },
  );
  cleanups.push(async () => {
    await daemon.stop();
    await api.close();
  });
  const at = (prefix: string) => hooks.got.filter((r) => r.path.startsWith(prefix));
  const events = (prefix: string) =>
    at(prefix).map((r) =>
      prefix === '/hmac' ? r.body.type : prefix === '/teams' ? factOf(r, 'Event') : r.body.event,
    );
  const drift = async () => {
    daemon.trigger('drift');
    await daemon.idle();
  };

  // 1. The first sync applies: "applied" (info) to Slack, the HMAC webhook and GitHub; not to Teams.
  await daemon.start();
  await daemon.idle();
  await until(() => gh.statuses.length >= 1 && at('/hmac').length >= 1 && at('/slack').length >= 1);
  expect(events('/slack')).toEqual(['applied']);
  expect(at('/slack')[0]!.body.text).toMatch(/^docsync applied 1 change to org_t \(org_t\)/);

  // 2. Drift (reported only: an error): everyone hears of it, the shorthand too; once.
  await call(emu, 'PUT', '/orgs/org_t/teams', { title: 'Click-ops <!channel>' });
  await drift();
  await drift();
  // 3. The API goes down: a drift error, once.
  await fetch(`${emu.url}/_emulator/faults`, {
    method: 'POST',
    body: JSON.stringify({ rate: 1, statuses: [503] }),
  });
  await drift();
  await drift();
  await fetch(`${emu.url}/_emulator/faults`, { method: 'POST', body: JSON.stringify({ rate: 0 }) });
  // 4. Someone removes the hand-made team: in sync again, "recovered" (info).
  const teams = (await call(emu, 'GET', '/orgs/org_t/teams')).body.items as { id: string; title: string }[];
  const extra = teams.find((t) => t.title.startsWith('Click-ops'))!;
  expect((await call(emu, 'DELETE', `/orgs/org_t/teams/${extra.id}`)).status).toBeLessThan(300);
  await drift();
  await until(() => gh.statuses.length >= 4);

  expect(events('/slack')).toEqual(['applied', 'drift', 'drift-error', 'recovered']);
  expect(events('/hmac')).toEqual(['applied', 'drift', 'drift-error', 'recovered']);
  // Severity filter: errors only.
  expect(events('/teams')).toEqual(['drift', 'drift-error']);
  // The --notify-url shorthand: the drift events, nothing else.
  expect(events('/legacy')).toEqual(['drift', 'drift-error']);
  expect(at('/legacy')[0]!.body.summary).toEqual({ create: 0, update: 0, delete: 1, move: 0 });

  // Slack: mrkdwn with data escaped.
  const slackDrift = at('/slack')[1]!.body;
  expect(slackDrift.text).toMatch(
    /^docsync drift: live state differs from the configuration: 0 to create, 0 to update, 1 to delete/,
  );
  expect(JSON.stringify(slackDrift.changes)).toContain('Click-ops');
  for (const r of at('/slack')) expect(r.body.text).not.toMatch(/[<>]/);

  // Teams: an Adaptive Card, red for errors, the error text escaped.
  const card = at('/teams')[1]!.body;
  expect(card.type).toBe('message');
  expect(card.attachments[0].contentType).toBe('application/vnd.microsoft.card.adaptive');
  expect(card.attachments[0].content.body[0]).toMatchObject({ type: 'TextBlock', color: 'attention' });
  expect(card.attachments[0].content.body[1].text).toMatch(/503/);

  // The generic webhook: each body signed with the key, over the exact bytes received.
  for (const r of at('/hmac')) {
    const expected = `sha256=${createHmac('sha256', HMAC_KEY).update(r.raw).digest('hex')}`;
    expect(r.headers['x-signature']).toBe(expected);
    expect(r.body).toMatchObject({ source: 'docsync', org: 'org_t', commit: sha });
  }

  // GitHub: a status per state on the commit the daemon used, context docsync/<org>.
  expect(gh.statuses.map((s) => [s.repo, s.sha, s.context, s.state])).toEqual([
    ['acme/docs-config', sha, 'docsync/org_t', 'success'],
    ['acme/docs-config', sha, 'docsync/org_t', 'failure'],
    ['acme/docs-config', sha, 'docsync/org_t', 'error'],
    ['acme/docs-config', sha, 'docsync/org_t', 'success'],
  ]);
  expect(gh.statuses[0]!.description).toBe('docsync applied 1 change to org_t');

  // No secret in any body, header (but GitHub's own authorization) or log line.
  await daemon.stop();
  const everything = [
    ...hooks.got.map((r) => `${r.raw} ${JSON.stringify(r.headers)}`),
    JSON.stringify(gh.statuses),
    logs,
  ].join('\n');
  for (const secret of [HMAC_KEY, GH_TOKEN, SLACK_KEY, TEAMS_KEY]) expect(everything).not.toContain(secret);
  expect(logs).toContain('notification sent');
});

/** A fact of a Teams card (the escaper adds backslashes before punctuation). */
function factOf(r: Received, title: string): string {
  const facts = r.body.attachments[0].content.body.find((b: any) => b.type === 'FactSet').facts as {
    title: string;
    value: string;
  }[];
  return facts.find((f) => f.title === title)!.value.replace(/\\/g, '');
}

it('docsync daemon refuses a bad notifications file at start: exit 1, a located line, no secret', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'docsync-notify-cli-'));
  writeFileSync(join(dir, 'teams-url'), 'not a url but teamskeyCLIsecret99\n');
  writeFileSync(
    join(dir, 'n.yaml'),
    'providers:\n  - name: oncall\n    type: msteams\n    addressFile: teams-url\n    severity: warn\n',
  );
  const env = {
    DOCSYNC_NOTIFICATIONS: join(dir, 'n.yaml'),
    DOCSYNC_TOKEN: 'x-token-1234',
    DOCSYNC_STATE_DIR: dir,
  };
  const result = await runMain(['daemon', '--config', dir, '--port', '0'], env);
  expect(result.code).toBe(1);
  expect(result.stderr).toContain(
    'the notifications file is invalid (--notifications, DOCSYNC_NOTIFICATIONS)',
  );
  expect(result.stderr).toContain(
    `${join(dir, 'n.yaml')}:5:15: error[invalid-value] providers[0].severity: must be one of "info", "error"`,
  );
  writeFileSync(
    join(dir, 'n.yaml'),
    'providers:\n  - name: oncall\n    type: msteams\n    addressFile: teams-url\n',
  );
  const second = await runMain(['daemon', '--config', dir, '--port', '0'], env);
  expect(second.code).toBe(1);
  expect(second.stderr).toContain('providers[0].addressFile: teams-url does not hold an http(s) URL');
  expect(second.stderr).not.toContain('teamskeyCLIsecret99');
});
