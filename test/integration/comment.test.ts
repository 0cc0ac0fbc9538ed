import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/server.js';
import { exampleSeed, TOKEN, withEmulator } from '../helpers/emulator.js';
import { MARKER, upsertComment } from '../../src/github/comment.js';
import { githubMock } from '../helpers/github-mock.js';
import { ROOT, runMain } from '../helpers/cli.js';

const GH_TOKEN = 'ghs_testtoken123456';
let emu: Emulator;
let gh: Awaited<ReturnType<typeof githubMock>>;
afterEach(async () => {
  await emu?.close();
  await gh?.close();
});

const config = join(ROOT, 'config');

describe('docsync comment', () => {
  it('creates one sticky comment, then edits it; says "no changes" briefly; marks drift against the base', async () => {
    emu = await withEmulator({ seed: exampleSeed() });
    gh = await githubMock(GH_TOKEN);
    const dir = mkdtempSync(join(tmpdir(), 'docsync-gh-'));
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
    const args = ['comment', '--config', config, '--github-api-url', gh.url];

    const first = await runMain(args, env);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/created comment \d+ on acme\/docs#7/);
    expect(gh.comments).toHaveLength(2);
    const mine = gh.comments[1]!;
    expect(mine.body).toContain('<!-- docsync-plan -->');
    expect(mine.body).toMatch(/\*\*Plan:\*\* \d+ to create/);
    expect(mine.body).toContain('<details>');
    // The plan creates sites: the navigation now and after, drawn as trees.
    expect(mine.body).toMatch(
      /Site navigation[\s\S]*\*\*After this plan\*\*\n\n```diff\n[\s\S]*^\+ +Developer Docs \(site\)$/m,
    );

    const second = await runMain([...args, '--pr', '7'], env);
    expect(second.stdout).toContain(`updated comment ${mine.id}`);
    expect(gh.comments).toHaveLength(2);
    expect(gh.calls.filter((c) => c.startsWith('POST'))).toHaveLength(1);
    expect(gh.calls.filter((c) => c.startsWith('PATCH'))).toHaveLength(1);

    expect((await runMain(['apply', '--config', config, '--yes'], env)).code).toBe(0);
    const none = await runMain(args, env);
    expect(none.code).toBe(0);
    expect(gh.comments[1]!.body).toContain('**No changes.**');
    expect(gh.comments[1]!.body.length).toBeLessThan(200);
    const skipped = await runMain([...args, '--skip-no-changes'], env);
    expect(skipped.stdout).toContain('no comment posted');

    // A pull request that adds a team, on an organization that drifted (a team made by hand).
    await fetch(`${emu.url}/v1/orgs/org_demo/teams`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Hand made' }),
    });
    const pr = join(dir, 'pr');
    const { mkdirSync, readFileSync } = await import('node:fs');
    mkdirSync(pr);
    writeFileSync(
      join(pr, 'demo.yaml'),
      readFileSync(join(config, 'demo.yaml'), 'utf8').replace(
        '  - title: Docs Writers',
        '  - title: Docs Writers\n  - title: New team',
      ),
    );
    const marked = await runMain(
      ['comment', '--config', pr, '--base-config', config, '--github-api-url', gh.url],
      env,
    );
    expect(marked.code, marked.stderr).toBe(0);
    expect(gh.comments[1]!.body).toMatch(
      /\+ team org_demo\/teams\/New team {2}\[introduced by this pull request\]/,
    );
    expect(gh.comments[1]!.body).toMatch(
      /- team org_demo\/teams\/Hand made {2}\[drift: also pending on the base branch\]/,
    );
    for (const c of gh.comments) expect(c.body).not.toContain(GH_TOKEN);
  });

  it('cuts an oversized plan under the GitHub limit and points to the artifact', async () => {
    gh = await githubMock(GH_TOKEN);
    const dir = mkdtempSync(join(tmpdir(), 'docsync-gh-'));
    const changes = Array.from({ length: 3000 }, (_, i) => ({
      id: `c${i + 1}`,
      action: 'create',
      kind: 'team',
      address: `org_big/teams/Team number ${i} with a rather long title`,
      before: null,
      after: { title: `Team number ${i} with a rather long title` },
      dependsOn: [],
    }));
    const planFile = join(dir, 'plan.json');
    writeFileSync(
      planFile,
      JSON.stringify({
        formatVersion: 1,
        organizations: ['org_big'],
        changes,
        summary: { create: 3000, update: 0, delete: 0, move: 0 },
        unmanaged: [],
        errors: [],
        checksum: 'x',
      }),
    );
    const res = await runMain(
      [
        'comment',
        '--plan-file',
        planFile,
        '--pr',
        '9',
        '--repository',
        'acme/docs',
        '--github-api-url',
        gh.url,
        '--artifact-url',
        'https://ci.example/run/1',
      ],
      { GITHUB_TOKEN: GH_TOKEN },
    );
    expect(res.code, res.stderr).toBe(0);
    const body = gh.comments[1]!.body;
    expect(body.length).toBeLessThanOrEqual(65_536);
    expect(body).toContain('**Output cut**');
    expect(body).toContain('https://ci.example/run/1');
    expect(body.split('```').length % 2).toBe(1);
  });

  it('fails clearly without GitHub settings', async () => {
    const res = await runMain(['comment', '--plan-file', 'x.json'], {
      GITHUB_TOKEN: '',
      GITHUB_REPOSITORY: '',
      GITHUB_EVENT_PATH: '',
    });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('GITHUB_TOKEN');
  });
});

describe('the sticky comment is only ever docsync’s own', () => {
  const planBody = `${MARKER}\n### docsync plan\n`;
  it.each([
    ['an Actions token; the marker pasted by another user', undefined, 'mallory', MARKER],
    [
      'an Actions token; the marker quoted after other text by the bot',
      undefined,
      'github-actions[bot]',
      `> ${MARKER}`,
    ],
    ['a personal token; the marker pasted by another user', 'docs-bot', 'mallory', MARKER],
    ['a personal token; a marker comment by the Actions bot', 'docs-bot', 'github-actions[bot]', MARKER],
  ])('%s: left alone, docsync posts and then edits its own', async (_name, login, other, body) => {
    gh = await githubMock(GH_TOKEN, login ? { login } : {});
    gh.comments.push({ id: 50, body: `${body}\nplease approve`, user: { login: other } });
    const target = { apiUrl: gh.url, token: GH_TOKEN, repository: 'acme/docs', pr: 7 };
    const first = await upsertComment(target, planBody);
    expect(first.action).toBe('created');
    expect(gh.comments.find((c) => c.id === 50)!.body).toBe(`${body}\nplease approve`);
    const mine = gh.comments.find((c) => c.id === first.id)!;
    expect(mine.user.login).toBe(login ?? 'github-actions[bot]');
    expect(await upsertComment(target, `${planBody}again`)).toEqual({ action: 'updated', id: first.id });
    expect(gh.comments.find((c) => c.id === 50)!.body).toBe(`${body}\nplease approve`);
    expect(gh.calls.filter((c) => c.startsWith('PATCH'))).toEqual([
      `PATCH /repos/acme/docs/issues/comments/${first.id}`,
    ]);
  });

  it('a token GitHub refuses is an error, not a guess', async () => {
    gh = await githubMock(GH_TOKEN);
    await expect(
      upsertComment(
        { apiUrl: gh.url, token: 'ghs_wrong_token_0000', repository: 'acme/docs', pr: 7 },
        planBody,
      ),
    ).rejects.toThrow(/GET \/user answered 401/);
  });
});
