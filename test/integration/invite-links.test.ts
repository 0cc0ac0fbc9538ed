import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applyPlan } from '../../src/apply/run.js';
import { loadConfig } from '../../src/config/load.js';
import type { Emulator } from '../../src/emulator/server.js';
import { exportOrganization } from '../../src/export/to-config.js';
import { readScoped } from '../../src/live/read.js';
import { everything } from '../../src/live/scope.js';
import { makePlan } from '../../src/pipeline/plan-run.js';
import { renderJson } from '../../src/plan/render-json.js';
import { renderMarkdown } from '../../src/plan/render-markdown.js';
import { renderText } from '../../src/plan/render-text.js';
import { fingerprint } from '../../src/secrets/credentials.js';
import { redact, registeredSecrets } from '../../src/secrets/registry.js';
import { runMain } from '../helpers/cli.js';
import { baseSeed, call, client, TOKEN, withEmulator, writes } from '../helpers/emulator.js';
import { desiredFromYaml } from '../helpers/config.js';

/**
 * Invite links (issue 29) as a list kind of today's API, served by the emulator from the kind's
 * declaration (issue 28): planned, applied and planned again; exported and planned back to zero
 * changes; refused in the seed flavor. An invite's id is its secret: never in a plan, apply output,
 * log or export (decision 0031).
 */
const IDS = {
  read: 'inv_secret_read_7f3a',
  comment: 'inv_secret_comment_91bc',
  admin: 'inv_secret_admin_44d0',
};

function seed(
  invites = [
    { id: IDS.read, role: 'read' },
    { id: IDS.comment, role: 'comment' },
    { id: IDS.admin, role: 'admin' },
  ],
) {
  const s = baseSeed(1);
  const o = (s.organizations as Record<string, unknown>[])[0]!;
  o.settings = { inviteLinks: true };
  o.inviteLinks = invites;
  return s;
}

const CONFIG = `organization: org_t
policy:
  prune: true
settings:
  inviteLinks: true
inviteLinks:
  - role: read
  - role: edit
    previously: [comment]
  - role: guest
`;

const desired = (text = CONFIG) => desiredFromYaml(text);

/** Every invite id the emulator holds (and ever held, from the seed). */
const allIds = (emu: Emulator) => [
  ...Object.values(IDS),
  ...((emu.state().organizations[0] as unknown as { linkInvites?: { id: string }[] }).linkInvites ?? []).map(
    (i) => i.id,
  ),
];
const invites = (emu: Emulator) =>
  (emu.state().organizations[0] as unknown as { linkInvites: { id: string; role: string | null }[] })
    .linkInvites;

let emu: Emulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

describe('invite links against the emulator (current flavor)', () => {
  it('plans, applies and plans again to zero changes; an update keeps the invite (and its id)', async () => {
    emu = await withEmulator({ seed: seed(), flavor: 'current' });
    const api = client(emu, { flavor: 'current' });
    try {
      const { plan } = await makePlan(api, desired());
      expect(plan.errors).toEqual([]);
      expect(plan.changes.map((c) => `${c.action} ${c.address}`).sort()).toEqual([
        'create org_t/invite-links/guest',
        'delete org_t/invite-links/admin',
        'update org_t/invite-links/edit',
      ]);
      const update = plan.changes.find((c) => c.action === 'update')!;
      expect(update.before).toEqual({ role: 'comment' });
      expect(update.after).toEqual({ role: 'edit' });
      expect(JSON.stringify(update)).toContain(fingerprint(IDS.comment));
      for (const text of [renderText(plan), renderMarkdown(plan), renderJson(plan)])
        for (const id of Object.values(IDS)) expect(text).not.toContain(id);

      const result = await applyPlan(plan, api);
      expect(result.ok, JSON.stringify(result.results)).toBe(true);
      // One call per change, each after one fresh list for the ones that name an invite by fingerprint.
      expect(
        writes(emu)
          .map((w) => `${w.method} ${w.path.replace(/inv_\w+$/, 'ID')} ${w.status}`)
          .sort(),
      ).toEqual([
        'DELETE /v1/orgs/org_t/link-invites/ID 205',
        'PATCH /v1/orgs/org_t/link-invites/ID 200',
        'POST /v1/orgs/org_t/link-invites 201',
      ]);
      expect(
        invites(emu).map((i) => [i.id === IDS.read || i.id === IDS.comment ? i.id : 'new', i.role]),
      ).toEqual([
        [IDS.read, 'read'],
        [IDS.comment, 'edit'],
        ['new', null],
      ]);

      const again = (await makePlan(api, desired())).plan;
      expect(again.errors).toEqual([]);
      expect(again.changes).toEqual([]);
    } finally {
      await api.close();
    }
  });

  it('an invite that changed after the plan was made is not guessed: an update fails, a delete is done, nothing is written', async () => {
    emu = await withEmulator({ seed: seed(), flavor: 'current' });
    const api = client(emu, { flavor: 'current' });
    try {
      const { plan } = await makePlan(api, desired());
      expect((await call(emu, 'DELETE', `/orgs/org_t/link-invites/${IDS.comment}`)).status).toBe(205);
      const before = writes(emu).length;
      const only = { ...plan, changes: plan.changes.filter((c) => c.action === 'update') };
      const result = await applyPlan(only, api);
      expect(result.ok).toBe(false);
      expect(JSON.stringify(result.results)).toContain('no live object has the fingerprint');
      expect(writes(emu).length).toBe(before);
      // A delete of an invite already gone is done, without a call.
      expect((await call(emu, 'DELETE', `/orgs/org_t/link-invites/${IDS.admin}`)).status).toBe(205);
      const deletes = { ...plan, changes: plan.changes.filter((c) => c.action === 'delete') };
      expect((await applyPlan(deletes, api)).ok).toBe(true);
      expect(writes(emu).length).toBe(before + 1);
    } finally {
      await api.close();
    }
  });

  it('exports invite links (two of one role pinned by fingerprint) and plans the export to zero changes', async () => {
    emu = await withEmulator({
      seed: seed([
        { id: IDS.read, role: 'read' },
        { id: IDS.comment, role: 'read' },
        { id: IDS.admin, role: null as unknown as string },
      ]),
      flavor: 'current',
    });
    const api = client(emu, { flavor: 'current' });
    try {
      const live = await readScoped(api, 'org_t', everything(), { secrets: new Map() });
      const result = exportOrganization({ ...live, spaces: [] }, undefined, new Map(), api.capabilities);
      const text = result.files.map((f) => f.text).join('\n');
      const organization = result.files.find((f) => f.path === 'organization.yaml')!.text;
      expect(organization).toContain(`role: read\n    id: ${fingerprint(IDS.read)}`);
      expect(organization).toContain('role: guest');
      for (const id of allIds(emu)) expect(text).not.toContain(id);

      const out = mkdtempSync(join(tmpdir(), 'docsync-invites-export-'));
      for (const f of result.files) writeFileSync(join(out, f.path.replace(/\//g, '_')), f.text);
      const loaded = await loadConfig(out);
      expect(loaded.issues).toEqual([]);
      const { plan } = await makePlan(api, loaded.desired!);
      expect(plan.errors).toEqual([]);
      expect(plan.changes).toEqual([]);
    } finally {
      await api.close();
    }
  });

  it('the seed flavor has no invite links: the emulator does not serve them and a plan refuses them', async () => {
    emu = await withEmulator({ seed: seed() });
    expect((await call(emu, 'GET', '/orgs/org_t/link-invites')).status).toBe(404);
    const api = client(emu, { flavor: 'seed' });
    try {
      const { plan } = await makePlan(api, desired());
      expect(plan.changes).toEqual([]);
      expect(plan.errors.map((e) => [e.code, e.message])).toEqual([
        [
          'unsupported-by-api',
          'invite links (inviteLinks) are not in this API: api.md has no link invites; remove inviteLinks or use --api-flavor current',
        ],
      ]);
    } finally {
      await api.close();
    }
  });
});

describe('docsync validate for a named API', () => {
  it("refuses inviteLinks for the seed flavor at its key, and accepts it for today's API", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docsync-invites-validate-'));
    writeFileSync(join(dir, 'org.yaml'), CONFIG);
    const seedRun = await runMain(['validate', '--config', dir], { DOCSYNC_API_FLAVOR: 'seed' });
    expect(seedRun.code).toBe(1);
    expect(seedRun.stderr).toMatch(/org\.yaml:6:1\b.*invite links \(inviteLinks\) are not in this API/);
    const current = await runMain(['validate', '--config', dir], { DOCSYNC_API_FLAVOR: 'current' });
    expect(current.code, current.stderr).toBe(0);
  });
});

describe('an invite id never leaves the process', () => {
  it('plan (text, markdown, JSON), apply output, debug logs and export never hold one', async () => {
    emu = await withEmulator({ seed: seed(), flavor: 'current' });
    const dir = mkdtempSync(join(tmpdir(), 'docsync-invites-secret-'));
    const config = join(dir, 'config');
    const out = join(dir, 'export');
    const planFile = join(dir, 'plan.json');
    await import('node:fs/promises').then((fs) => fs.mkdir(config, { recursive: true }));
    writeFileSync(join(config, 'org.yaml'), CONFIG);
    const env = {
      DOCSYNC_API_URL: emu.url,
      DOCSYNC_TOKEN: TOKEN,
      DOCSYNC_API_FLAVOR: 'current',
      DOCSYNC_LOG_LEVEL: 'debug',
    };
    const runs = [
      await runMain(['plan', '--config', config, '--format', 'text'], env),
      await runMain(['plan', '--config', config, '--format', 'markdown'], env),
      await runMain(['plan', '--config', config, '--format', 'json', '--out', planFile], env),
      await runMain(['apply', '--config', config, '--yes'], env),
      await runMain(['plan', '--config', config, '--format', 'json'], env),
      await runMain(['export', '--org', 'org_t', '--out', out], env),
    ];
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    const texts = [
      ...runs.flatMap((r) => [r.stdout, r.stderr]),
      readFileSync(planFile, 'utf8'),
      ...readdirSync(out, { recursive: true })
        .map(String)
        .filter((f) => f.endsWith('.yaml'))
        .map((f) => readFileSync(join(out, f), 'utf8')),
    ];
    // What was planned and applied is there, by fingerprint.
    expect(runs[0]!.stdout).toContain('invite-links/edit');
    expect(runs[2]!.stdout).toContain(fingerprint(IDS.comment));
    expect(runs[3]!.stdout).toMatch(/applied|Applied/);
    expect(texts.join('\n')).toContain('inviteLinks:');
    for (const id of allIds(emu)) for (const text of texts) expect(text).not.toContain(id);
  });

  it('credentials a kind declares join redaction when read: an invite id, a share link URL', async () => {
    const s = seed([{ id: 'inv_registered_5e1d', role: 'read' }]);
    (s.organizations as Record<string, unknown>[])[0]!.sites = [
      { id: 'site_1', title: 'Docs', shareLinks: [{ name: 'p' }] },
    ];
    emu = await withEmulator({ seed: s, flavor: 'current' });
    const url = (await call(emu, 'GET', '/orgs/org_t/sites/site_1/share-links')).body.items[0].urls
      .published as string;
    expect(redact(`join at inv_registered_5e1d, view at ${url}`)).toContain('inv_registered_5e1d');
    // (A share URL is also caught by its pattern; declared, it is a registered secret itself.)
    expect(registeredSecrets()).not.toContain(url);
    const api = client(emu, { flavor: 'current' });
    try {
      await makePlan(
        api,
        desired(
          'organization: org_t\ninviteLinks: [{ role: read }]\nsites:\n  - title: Docs\n    shareLinks: [{ name: p }]\n',
        ),
      );
    } finally {
      await api.close();
    }
    expect(redact('join at inv_registered_5e1d')).not.toContain('inv_registered_5e1d');
    expect(registeredSecrets()).toContain(url);
  });
});
