import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { until } from '../helpers/cli.js';
import { startDaemonInProcess } from '../helpers/daemon.js';
import { baseSeed, call, TOKEN, withEmulator } from '../helpers/emulator.js';
import { makeRepo } from '../helpers/git.js';

/**
 * The site's public face through the daemon (issue 30): a commit that renames a published section
 * is applied with the redirect that keeps its old URL working, and a commit that sets the site's
 * customization is applied sparsely. In-process daemon (decision 0041), emulator over HTTP, real git.
 */
function seed() {
  const s = baseSeed(2);
  const o = (s.organizations as Record<string, unknown>[])[0]!;
  o.sites = [
    {
      id: 'site_docs',
      title: 'Docs',
      published: true,
      sections: [
        {
          id: 'sec_guides',
          title: 'Guides',
          path: 'guides',
          siteSpaces: [{ id: 'ss_1', space: 'space_1', path: 'v1' }],
        },
      ],
    },
  ];
  return s;
}

const config = (path: string, customization = '') => `organization: org_t
sites:
  - title: Docs
${customization}    sections:
      - path: ${path}
        title: Guides
        spaces:
          - space: space_1
            path: v1
`;

it('the daemon applies a section rename with the redirect from its old URL, then a sparse customization', async () => {
  const emu = await withEmulator({ seed: seed(), flavor: 'current' });
  const repo = makeRepo({ 'org.yaml': config('guides') });
  const daemon = await startDaemonInProcess(
    [
      ...['--repo', repo.url, '--mode', 'apply', '--interval', '1s', '--stop-timeout', '2s'],
      ...['--state-dir', mkdtempSync(join(tmpdir(), 'docsync-daemon-face-'))],
    ],
    { DOCSYNC_API_URL: emu.url, DOCSYNC_TOKEN: TOKEN, DOCSYNC_API_FLAVOR: 'current' },
  );
  const site = '/orgs/org_t/sites/site_docs';
  const resolves = async (source: string) =>
    (await call(emu, 'GET', `${site}/redirect?source=${encodeURIComponent(source)}`)).status === 200;
  try {
    repo.commit({ 'org.yaml': config('tutorials') }, 'rename guides to tutorials');
    await until(() => resolves('/guides'), 30_000).catch(() =>
      expect(resolves('/guides'), daemon.stderr().slice(-3000)).resolves.toBe(true),
    );
    const section = emu.state().organizations[0]!.sites[0]!.sections.find((x) => x.id === 'sec_guides')!;
    expect(section.path).toBe('tutorials');

    const before = (await call(emu, 'GET', `${site}/customization`)).body as Record<string, unknown>;
    repo.commit(
      { 'org.yaml': config('tutorials', '    customization: { trademark: { enabled: false } }\n') },
      'hide the trademark',
    );
    const trademark = async () =>
      ((await call(emu, 'GET', `${site}/customization`)).body as { trademark?: { enabled?: boolean } })
        .trademark?.enabled;
    await until(async () => (await trademark()) === false, 30_000).catch(async () =>
      expect(await trademark(), daemon.stderr().slice(-3000)).toBe(false),
    );
    // Sparse: every other key of the document is as it was.
    const after = (await call(emu, 'GET', `${site}/customization`)).body as Record<string, unknown>;
    expect({ ...after, trademark: undefined, updatedAt: undefined }).toEqual({
      ...before,
      trademark: undefined,
      updatedAt: undefined,
    });
    expect(daemon.stderr()).not.toContain(TOKEN);
  } finally {
    expect(await daemon.stop()).toBe(0);
    await emu.close();
  }
}, 90_000);
