import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/server.js';
import { deriveEvents, type Observation } from '../../src/notify/events.js';
import { sendEvent } from '../../src/notify/notifier.js';
import { notifyUrlProvider } from '../../src/notify/settings.js';
import { registerSecret } from '../../src/secrets/registry.js';
import { runMain } from '../helpers/cli.js';
import { exampleSeed, TOKEN, withEmulator } from '../helpers/emulator.js';
import { githubMock } from '../helpers/github-mock.js';
import { HOSTILE, injections, tokensOf } from '../helpers/hostile-markdown.js';

const GH_TOKEN = 'ghs_testtoken123456';
let emu: Emulator | undefined;
let gh: Awaited<ReturnType<typeof githubMock>> | undefined;
afterEach(async () => {
  await emu?.close();
  await gh?.close();
});

/** Titles the emulator and the config both take (a team title is one line, 1 to 100 characters). */
const titles = HOSTILE.filter((h) => h.trim() !== '').map((h, i) => `${i} ${h}`);

async function putTeam(url: string, title: string): Promise<void> {
  const res = await fetch(`${url}/v1/orgs/org_demo/teams`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ title }),
  });
  if (!res.ok) throw new Error(`PUT team ${JSON.stringify(title)}: ${res.status} ${await res.text()}`);
}

describe('hostile titles in live state and config (issue 26, finding 3)', () => {
  it('plan --format markdown and the pull-request comment render them as text only', async () => {
    emu = await withEmulator({ seed: exampleSeed() });
    gh = await githubMock(GH_TOKEN);
    // Live: unmanaged teams with hostile titles, and two live teams sharing a hostile title.
    for (const t of titles) await putTeam(emu.url, `live ${t}`);
    const dup = 'dup </details><img src=x> @user #1\n```';
    await putTeam(emu.url, dup);
    await putTeam(emu.url, dup);
    // Config: teams to create with hostile titles, one that matches the duplicates.
    const dir = mkdtempSync(join(tmpdir(), 'docsync-hostile-'));
    const config = join(dir, 'config');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(config);
    const teams = [...titles.map((t) => `config ${t}`), dup].map((t) => `  - title: ${JSON.stringify(t)}`);
    writeFileSync(join(config, 'org.yaml'), `organization: org_demo\nteams:\n${teams.join('\n')}\n`);
    const event = join(dir, 'event.json');
    writeFileSync(event, JSON.stringify({ pull_request: { number: 7 } }));
    const env = {
      DOCSYNC_API_URL: emu.url,
      DOCSYNC_TOKEN: TOKEN,
      GITHUB_TOKEN: GH_TOKEN,
      GITHUB_REPOSITORY: 'acme/docs',
      GITHUB_EVENT_PATH: event,
      DOCSYNC_STATE_DIR: dir,
    };

    const plan = await runMain(['plan', '--config', config, '--format', 'markdown'], env);
    expect(plan.stderr).not.toMatch(/error/i);
    const comment = await runMain(['comment', '--config', config, '--github-api-url', gh.url], env);
    expect(comment.code, comment.stderr).toBe(0);
    const body = gh.comments[1]!.body;

    for (const md of [plan.stdout, body]) {
      // Every hostile title reached the markdown: created, unmanaged, and the duplicate warning.
      expect(md).toContain('Unmanaged');
      expect(md).toContain('**Warning**');
      const text = tokensOf(md)
        .map((t) => t.content.replace(/\u200b/g, ''))
        .join('\n');
      for (const t of ['0 [click](https://evil.example/x)', '8 @org/team']) {
        expect(text).toContain(`config ${t}`);
        expect(text).toContain(`live ${t}`);
      }
      expect(injections(md)).toEqual([]);
      const headings = tokensOf(md).filter((t) => t.type === 'heading_open');
      expect(headings).toHaveLength(1);
      // The diff block is one fence holding one line per team to create (plus its fields).
      const fences = tokensOf(md).filter((t) => t.type === 'fence');
      expect(fences).toHaveLength(1);
      expect(fences[0]!.content.split('\n').filter((l) => l.startsWith('+ team'))).toHaveLength(
        titles.length,
      );
    }
  });
});

/** What `--notify-url` sends for a drift of `org`, and for a drift check of it that failed with `error`. */
async function notify(url: string, org: string): Promise<void> {
  const counts = { create: 0, update: 0, delete: 0, move: 0 };
  await slack(url, { org, kind: 'drift', checksum: 'c', counts, changes: [], healing: false });
}
async function notifyDriftError(url: string, error: string, org = 'org_t'): Promise<void> {
  await slack(url, { org, kind: 'drift-error', error, code: 'server' });
}
async function slack(url: string, observation: Observation): Promise<void> {
  for (const event of deriveEvents(undefined, observation).events)
    await sendEvent(notifyUrlProvider(url), event);
}

describe('Slack notifications (issue 26, finding 3)', () => {
  it('carry data escaped: no <!channel>, no <url|link> from an organization id or an error', async () => {
    const bodies: { text: string }[] = [];
    const server = createServer((req, res) => {
      let raw = '';
      req.on('data', (d: Buffer) => (raw += d.toString()));
      req.on('end', () => {
        bodies.push(JSON.parse(raw) as { text: string });
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    try {
      await notify(url, '<!channel> & <https://evil.example|click>');
      await notifyDriftError(url, 'team "<!here>" failed');
    } finally {
      server.close();
    }
    expect(bodies).toHaveLength(2);
    for (const { text } of bodies) expect(text).not.toMatch(/[<>]/);
    expect(bodies[0]!.text).toContain('(&lt;!channel&gt; &amp; &lt;https://evil.example|click&gt;)');
    expect(bodies[1]!.text).toContain('\nteam "&lt;!here&gt;" failed');
  });

  it('carry no secret, even one the escaping changes (`&`, `<`, `>`, `_`, `-`, `.`)', async () => {
    const secrets = ['gb_api_s3cr3t-token.value', 'gb&api<s3cr3t>x'];
    for (const secret of secrets) registerSecret(secret);
    const bodies: string[] = [];
    const server = createServer((req, res) => {
      let raw = '';
      req.on('data', (d: Buffer) => (raw += d.toString()));
      req.on('end', () => {
        bodies.push(raw);
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    try {
      const data = `${secrets.join(' ')} https://h/x?token=abcd1234`;
      await notify(url, data);
      await notifyDriftError(url, `read failed: ${data}`, data);
    } finally {
      server.close();
    }
    expect(bodies).toHaveLength(2);
    for (const body of bodies) {
      const text = (JSON.parse(body) as { text: string }).text
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&');
      for (const leak of [...secrets, 'abcd1234']) expect(text).not.toContain(leak);
      expect(text).toContain('[redacted]');
    }
  });
});
