import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as PerfHooks from 'node:perf_hooks';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it, vi } from 'vitest';
import { exampleSeed, TOKEN, withEmulator } from '../helpers/emulator.js';
import { ROOT, until } from '../helpers/cli.js';
import { startDaemonInProcess } from '../helpers/daemon.js';
import { makeRepo } from '../helpers/git.js';

/** What holds this process's event loop, by kind and count (timers, sockets, servers, child processes). */
const handles = () => {
  const counts: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
};

/** The `perf_hooks` object prom-client's default metrics use (Node caches a builtin: the same one). */
const perfHooks = createRequire(import.meta.url)('node:perf_hooks') as typeof PerfHooks;

it('a daemon run in-process stops on its AbortSignal: it returns 0, leaves no timer, socket, child or metrics monitor behind, and never exits the process', async () => {
  // The event-loop delay monitors and GC observers the daemon's process metrics start (not handles:
  // process.getActiveResourcesInfo does not list them).
  const monitors = vi.spyOn(perfHooks, 'monitorEventLoopDelay');
  const observe = vi.spyOn(perfHooks.PerformanceObserver.prototype, 'observe');
  const disconnect = vi.spyOn(perfHooks.PerformanceObserver.prototype, 'disconnect');
  const emu = await withEmulator({ seed: exampleSeed() });
  const repo = makeRepo({
    'demo.yaml': (await import('node:fs')).readFileSync(join(ROOT, 'config', 'demo.yaml'), 'utf8'),
  });
  try {
    const before = handles();
    const daemon = await startDaemonInProcess(
      [
        ...['--repo', repo.url, '--mode', 'plan', '--interval', '1s', '--drift-cron', '* * * * * *'],
        ...['--stop-timeout', '1s', '--state-dir', mkdtempSync(join(tmpdir(), 'docsync-in-process-'))],
      ],
      { DOCSYNC_API_URL: emu.url, DOCSYNC_TOKEN: TOKEN, DOCSYNC_LOG_LEVEL: 'info' },
    );
    await until(async () => (await daemon.status()).lastDrift?.drifted === true, 30_000);
    expect(await daemon.stop()).toBe(0);
    // Each monitor it started is stopped (disable() is false once stopped), each observer disconnected.
    expect(monitors).toHaveBeenCalled();
    for (const r of monitors.mock.results) expect(r.type === 'return' && r.value.disable()).toBe(false);
    expect(observe.mock.contexts.length).toBeGreaterThan(0);
    for (const o of observe.mock.contexts) expect(disconnect.mock.contexts).toContain(o);
    expect(daemon.stderr()).toContain('"msg":"stopping"');
    expect(daemon.stderr()).not.toContain(TOKEN);
    // Past the stop timeout (the process's last resort would have exited by now), still here,
    // and nothing of the daemon holds the event loop.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const left = () => Object.entries(handles()).filter(([kind, n]) => n > (before[kind] ?? 0));
    await until(() => left().length === 0, 5_000, 50).catch(() => expect(left()).toEqual([]));
  } finally {
    vi.restoreAllMocks();
    await emu.close();
  }
}, 60_000);
