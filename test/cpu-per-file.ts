import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { basename, join } from 'node:path';
import { afterAll } from 'vitest';

/**
 * Opt-in (DOCSYNC_TEST_CPU=out.jsonl): one line per test file with the CPU it took, its worker's
 * own and its reaped child processes' (daemons, git, etcd, npm), from /proc/self/stat. A worker
 * runs one file at a time, so the deltas are the file's. Where the suite's CPU goes.
 */
const out = process.env['DOCSYNC_TEST_CPU'];
const TICK = 100; // USER_HZ
function ticks(): { self: number; children: number } {
  const f = readFileSync('/proc/self/stat', 'utf8');
  const s = f.slice(f.lastIndexOf(')') + 2).split(' ');
  // fields after ')' start at field 3: utime=14, stime=15, cutime=16, cstime=17
  const n = (i: number) => Number(s[i - 3]);
  return { self: n(14) + n(15), children: n(16) + n(17) };
}
if (out) {
  // Setup files run before each test file is imported: the import is counted.
  const start = ticks();
  const wall = Date.now();
  // eslint-disable-next-line no-empty-pattern -- vitest passes the file's suite second
  afterAll(({}, suite) => {
    const end = ticks();
    appendFileSync(
      out,
      `${JSON.stringify({
        file: (suite as { filepath?: string }).filepath ?? suite.name,
        selfS: (end.self - start.self) / TICK,
        childrenS: (end.children - start.children) / TICK,
        wallS: (Date.now() - wall) / 1000,
      })}\n`,
    );
  });
}

/**
 * Opt-in (DOCSYNC_TEST_PROF=folder): a V8 CPU profile of each test file's worker while it runs the
 * file, `folder/<file>.cpuprofile` (open it in Chrome's DevTools or speedscope). vitest's
 * `--execArgv=--cpu-prof` writes nothing: node writes the profile as the process exits, and the
 * worker is ended before that. Child processes are profiled with node's own `--cpu-prof`.
 */
const profiles = process.env['DOCSYNC_TEST_PROF'];
if (profiles) {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  // eslint-disable-next-line no-empty-pattern -- vitest passes the file's suite second
  afterAll(async ({}, suite) => {
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    const file = (suite as { filepath?: string }).filepath ?? suite.name;
    mkdirSync(profiles, { recursive: true });
    writeFileSync(join(profiles, `${basename(file)}.cpuprofile`), JSON.stringify(profile));
  });
}
