import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/server.js';
import { until } from '../helpers/cli.js';
import { startDaemonInProcess } from '../helpers/daemon.js';
import { baseSeed, TOKEN, withEmulator } from '../helpers/emulator.js';
import { makeRepo } from '../helpers/git.js';

/**
 * Grants through the daemon (issue 29): the daemon, watching a config repository, grants a team
 * access to a space, a collection and a site, then changes and revokes it as commits land; the
 * token's own grant stays. In-process daemon (decision 0041), emulator over HTTP, real git.
 */
function seed() {
  const s = baseSeed(2);
  s.tokenUser = 'user_a';
  const o = (s.organizations as Record<string, unknown>[])[0]!;
  o.teams = [{ id: 'team_p', title: 'Platform', members: ['user_b'] }];
  o.collections = [{ id: 'col_1', title: 'Product' }];
  (o.spaces as Record<string, unknown>[])[0]!.access = [{ user: 'user_a', role: 'admin' }];
  o.sites = [{ id: 'site_1', title: 'Docs' }];
  return s;
}

const config = (role: string | null) => {
  const access = role ? `[{ team: Platform, role: ${role} }]` : '[]';
  return `organization: org_t
policy:
  prune: true
teams:
  - title: Platform
    members: [b@example.com]
collections:
  - title: Product
    access: ${access}
spaces:
  - id: space_1
    access: ${access}
sites:
  - title: Docs
    access: ${access}
`;
};

/** Each holder's grants in the emulator, as `subject=role`. */
function grants(emu: Emulator): string[] {
  const o = emu.state().organizations[0]!;
  const show = (what: string, access: { team?: string; user?: string; role: string }[] | undefined) =>
    (access ?? []).map((g) => `${what} ${g.team ?? g.user}=${g.role}`);
  return [
    ...show('space', o.spaces.find((s) => s.id === 'space_1')!.access as never),
    ...show('collection', o.collections[0]!.access as never),
    ...show('site', o.sites[0]!.access as never),
  ].sort();
}

it('the daemon grants, changes and revokes a team access to a space, a collection and a site as commits land', async () => {
  const emu = await withEmulator({ seed: seed(), flavor: 'current' });
  const repo = makeRepo({ 'org.yaml': config('edit') });
  const daemon = await startDaemonInProcess(
    [
      ...[
        '--repo',
        repo.url,
        '--mode',
        'apply',
        '--interval',
        '1s',
        '--stop-timeout',
        '2s',
        '--allow-deletes',
        '3',
      ],
      ...['--state-dir', mkdtempSync(join(tmpdir(), 'docsync-daemon-grants-'))],
    ],
    { DOCSYNC_API_URL: emu.url, DOCSYNC_TOKEN: TOKEN, DOCSYNC_API_FLAVOR: 'current' },
  );
  try {
    const expectGrants = (want: string[]) =>
      until(() => JSON.stringify(grants(emu)) === JSON.stringify(want), 30_000).catch(() =>
        expect(grants(emu), daemon.stderr().slice(-3000)).toEqual(want),
      );
    await expectGrants([
      'collection team_p=edit',
      'site team_p=edit',
      'space team_p=edit',
      'space user_a=admin',
    ]);
    repo.commit({ 'org.yaml': config('read') }, 'Platform reads only');
    await expectGrants([
      'collection team_p=read',
      'site team_p=read',
      'space team_p=read',
      'space user_a=admin',
    ]);
    repo.commit({ 'org.yaml': config(null) }, 'revoke Platform');
    // Revoked everywhere (deletions: allowed by --allow-deletes); the token's own admin grant on
    // the space is never revoked.
    await expectGrants(['space user_a=admin']);
    expect(daemon.stderr()).not.toContain(TOKEN);
  } finally {
    expect(await daemon.stop()).toBe(0);
    await emu.close();
  }
}, 90_000);
