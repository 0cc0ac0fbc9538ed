import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, BrowserType, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/server.js';
import { exampleSeed, TOKEN, withEmulator } from '../helpers/emulator.js';
import { ROOT, runMain, until } from '../helpers/cli.js';
import { startDaemonInProcess, type InProcessDaemon } from '../helpers/daemon.js';
import { makeRepo } from '../helpers/git.js';

/**
 * The status page in a real browser: Debian's Chromium (installed by .ci/run), driven by
 * playwright-core, which downloads no browser. Locally without /usr/bin/chromium the test is
 * skipped (install it with `apt-get install chromium`); in CI it must run.
 */
const CHROMIUM = '/usr/bin/chromium';
/**
 * playwright-core is CommonJS: required, not imported. An `import` of it has Node scan its bundles
 * for their exports (cjs-module-lexer) before evaluating them: about 0.25 s more CPU for the same
 * module.
 */
const { chromium } = createRequire(import.meta.url)('playwright-core') as {
  chromium: BrowserType;
};
const available = existsSync(CHROMIUM);
const runIt = available || Boolean(process.env['CI']);
const HOSTILE_TITLE = '<img src=x onerror=document.title=1>';
const HOSTILE_SUBJECT = "<script>document.title='pwned'</script> add changelog";
const SECRET = 'hook-secret-for-the-page';

/** Where the test leaves its screenshots (390 and 1280 px) for a person to look at. */
const SCREENSHOTS = mkdtempSync(join(tmpdir(), 'docsync-page-shots-'));

/**
 * What breaks the layout, measured in the page: a badge whose text takes more than one line, a
 * runs-table cell that is hidden or ends past the viewport, a page wider than the viewport.
 */
async function layoutProblems(page: Page): Promise<string[]> {
  // A script (not a function): the test is compiled without the DOM's types.
  return page.evaluate(`(() => {
    const problems = [];
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > width)
      problems.push('the page scrolls sideways: ' + document.documentElement.scrollWidth + ' > ' + width);
    for (const badge of document.querySelectorAll('.badge, .kind')) {
      const range = document.createRange();
      range.selectNodeContents(badge);
      const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      const lineHeight = parseFloat(getComputedStyle(badge).lineHeight);
      const box = badge.getBoundingClientRect();
      if (lines.size > 1 || box.height > lineHeight * 1.5)
        problems.push('"' + badge.innerText + '" wraps (' + lines.size + ' lines, ' + box.height + ' px high)');
    }
    const columns = document.querySelectorAll('.runs thead th').length;
    if (columns !== 6) problems.push('the runs table has ' + columns + ' columns');
    for (const row of document.querySelectorAll('.runs tbody tr')) {
      const cells = [...row.querySelectorAll(':scope > td')];
      if (cells.length !== columns) problems.push('a row has ' + cells.length + ' cells');
      cells.forEach((cell, i) => {
        const box = cell.getBoundingClientRect();
        if (getComputedStyle(cell).display === 'none' || box.width === 0)
          problems.push('column ' + (i + 1) + ' is hidden');
        if (box.right > width + 0.5) problems.push('column ' + (i + 1) + ' ends at ' + box.right + ' > ' + width);
      });
    }
    return problems;
  })()`);
}

let emu: Emulator | undefined;
let daemon: InProcessDaemon | undefined;
let launching: Promise<BrowserContext> | undefined;
afterAll(async () => {
  // Closed here too if the test failed before it used the browser.
  await (await launching?.catch(() => undefined))?.close();
  await daemon?.stop();
  await emu?.close();
});

describe('status page in a browser', () => {
  it.runIf(!runIt)(`skipped: ${CHROMIUM} is missing (apt-get install chromium; CI installs it)`, () => {
    expect(available).toBe(false);
  });

  it.runIf(runIt)(
    'shows the organization, the revision and a pending change, escapes config text, and never the token',
    async () => {
      // Chromium starts (its own processes, a second or more) while the emulator, the apply and the
      // daemon get ready: the page is loaded only once the daemon has planned.
      launching = chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'docsync-chromium-')), {
        executablePath: CHROMIUM,
        headless: true,
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
        viewport: { width: 390, height: 844 },
      });
      launching.catch(() => undefined); // awaited below (and in afterAll)
      emu = await withEmulator({ seed: exampleSeed() });
      const demo = readFileSync(join(ROOT, 'config', 'demo.yaml'), 'utf8');
      const state = mkdtempSync(join(tmpdir(), 'docsync-page-'));
      const env = { DOCSYNC_API_URL: emu.url, DOCSYNC_TOKEN: TOKEN, DOCSYNC_STATE_DIR: state };
      // Deployed: the demo config. Pending: a hostile section title, a site space path, a new team.
      expect((await runMain(['apply', '--config', join(ROOT, 'config'), '--yes'], env)).code).toBe(0);
      const repo = makeRepo({ 'demo.yaml': demo });
      const sha = repo.commit(
        {
          'demo.yaml': demo
            .replace('title: Changelog', `title: "${HOSTILE_TITLE}"`)
            .replace('path: v2', 'path: v3')
            .replace(
              '  - title: Docs Writers',
              '  - title: Reviewers\n    members: []\n  - title: Docs Writers',
            ),
        },
        HOSTILE_SUBJECT,
      );
      daemon = await startDaemonInProcess(
        [
          '--repo',
          repo.url,
          '--mode',
          'plan',
          '--interval',
          '1h',
          '--state-dir',
          state,
          '--webhook-secret',
          SECRET,
        ],
        { DOCSYNC_API_URL: emu.url, DOCSYNC_TOKEN: TOKEN, DOCSYNC_LOG_LEVEL: 'warn' },
      );
      await until(async () => (await daemon!.status()).lastSync?.result === 'planned', 60_000);

      const context = await launching;
      try {
        const page = context.pages()[0] ?? (await context.newPage());
        // The page reloads itself every 10 s (its meta refresh, src/daemon/ui/status-page.test.ts):
        // taken out here, so that on a slow machine no check runs across a reload.
        await page.route(`${daemon.url}/`, async (route) => {
          const served = await route.fetch();
          const body = (await served.text()).replace(/<meta http-equiv="refresh"[^>]*>/, '');
          await route.fulfill({ response: served, body });
        });
        const response = await page.goto(daemon.url, { waitUntil: 'load' });
        expect(response?.status()).toBe(200);
        await expect(page.title()).resolves.toBe('docsync status');

        const text = await page.locator('body').innerText();
        expect(text).toContain('org_demo');
        expect(text).toContain(sha.slice(0, 12));
        expect(text).toContain(HOSTILE_SUBJECT);
        // Pending changes drawn on the deployed site structure, with their marks and fields.
        const node = (label: string) => page.locator(`.node:has(> .label:text-is(${JSON.stringify(label)}))`);
        const markOf = (label: string) => node(label).locator('.mark').innerText();
        await expect(markOf(`${HOSTILE_TITLE} /changelog`)).resolves.toBe('~');
        await expect(
          node(`${HOSTILE_TITLE} /changelog`)
            .locator('xpath=following-sibling::ul[@class="fields"]')
            .innerText(),
        ).resolves.toBe(`title: "Changelog" → "${HOSTILE_TITLE}"`);
        await expect(markOf('space_guides /v3')).resolves.toBe('~');
        await expect(markOf('API Reference /api')).resolves.toBe('');
        expect(text).toMatch(/pending\s+1 to create, 2 to update, 0 to delete, 0 to move/);
        expect(text).toContain('org_demo/teams/Reviewers');
        // The last runs: the startup sync that planned.
        await expect(page.locator('table tbody tr').first().innerText()).resolves.toMatch(
          /startup[\s\S]*planned/,
        );

        // Nothing ran: no script element, the hostile title is text, no image was made of it.
        expect(await page.locator('script').count()).toBe(0);
        expect(await page.locator('img').count()).toBe(0);

        // It fits a phone and a desktop: no badge wraps, every column of the runs table is on
        // screen, nothing scrolls sideways (details opened: their lists count too).
        for (const width of [390, 1280]) {
          await page.setViewportSize({ width, height: 844 });
          await page.evaluate('document.querySelectorAll("details").forEach((d) => (d.open = true))');
          const file = join(SCREENSHOTS, `status-page-${width}.png`);
          await page.screenshot({ path: file, fullPage: true });
          expect(await layoutProblems(page), `${width} px (screenshot: ${file})`).toEqual([]);
        }
        await page.setViewportSize({ width: 390, height: 844 });

        const html = await page.content();
        expect(html).not.toContain(TOKEN);
        expect(html).not.toContain(SECRET);

        if (process.env['UPDATE_SCREENSHOT']) {
          await page.setViewportSize({ width: 1100, height: 900 });
          await page.screenshot({ path: join(ROOT, 'docs', 'status-page.png'), fullPage: true });
        }
      } finally {
        await context.close();
      }
    },
    120_000,
  );
});
