import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prefixEnd } from '../../src/coord/etcd-client.js';
import { until } from './cli.js';

/** The etcd binary (Debian's etcd-server package), or why it is missing. */
export function etcdBinary(): { path: string } | { missing: string } {
  const path = process.env['DOCSYNC_TEST_ETCD'] ?? 'etcd';
  const r = spawnSync(path, ['--version'], { encoding: 'utf8' });
  return r.status === 0
    ? { path }
    : {
        missing: `etcd not found (${path}): install etcd-server (apt-get install etcd-server) to run the etcd tests`,
      };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export type EtcdServer = {
  url: string;
  /** SIGTERM and wait for the exit; the data folder stays. */
  stop: () => Promise<void>;
  /** Start again on the same ports and data (after stop). */
  start: () => Promise<void>;
  /** SIGSTOP / SIGCONT the server: it answers nothing meanwhile, and its leases' time runs on. */
  pause: () => void;
  resume: () => void;
  close: () => Promise<void>;
};

/**
 * Where the data folder goes: in memory (tmpfs) where there is one. etcd syncs its write-ahead log
 * at each write; on tmpfs that costs nothing, and a test's restart (stop, then start) still finds
 * its data: about 45 % less of etcd's CPU under the replicas' writes. Elsewhere the temp folder.
 */
const DATA_PARENT = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();

/**
 * One etcd server for a test file: free ports on loopback, a temporary data folder. One Go thread
 * at a time (GOMAXPROCS=1: a test's etcd serves a handful of clients; its scheduler then does not
 * spin on both cores), and only errors logged (`--logger zap`: with etcd 3.4's default logger,
 * raft logs its INFO lines whatever `--log-level` says).
 */
export async function startEtcd(binary: string): Promise<EtcdServer> {
  const [client, peer] = [await freePort(), await freePort()];
  const dataDir = mkdtempSync(join(DATA_PARENT, 'docsync-etcd-'));
  const url = `http://127.0.0.1:${client}`;
  const peerUrl = `http://127.0.0.1:${peer}`;
  let child: ChildProcess | null = null;
  let log = '';
  const start = async () => {
    log = '';
    const c = spawn(
      binary,
      [
        '--name',
        'test',
        '--data-dir',
        dataDir,
        '--listen-client-urls',
        url,
        '--advertise-client-urls',
        url,
        '--listen-peer-urls',
        peerUrl,
        '--initial-advertise-peer-urls',
        peerUrl,
        '--initial-cluster',
        `test=${peerUrl}`,
        '--heartbeat-interval',
        '50',
        '--election-timeout',
        '250',
        '--logger',
        'zap',
        '--log-level',
        'error',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, GOMAXPROCS: '1' } },
    );
    child = c;
    c.stderr!.on('data', (d: Buffer) => (log += d.toString()));
    let exited = false;
    c.on('exit', () => (exited = true));
    await until(
      async () => {
        if (exited) throw new Error(`etcd exited:\n${log}`);
        const r = await fetch(`${url}/health`, { signal: AbortSignal.timeout(500) }).catch(() => null);
        return r?.ok && ((await r.json()) as { health?: string }).health === 'true';
      },
      20_000,
      50,
    );
  };
  const stop = async () => {
    (child as ChildProcess | null)?.kill('SIGCONT');
    const c = child;
    child = null;
    if (!c || c.exitCode !== null) return;
    const exit = new Promise((resolve) => c.once('exit', resolve));
    c.kill('SIGTERM');
    await exit;
  };
  await start();
  return {
    url,
    stop,
    start,
    pause: () => void (child as ChildProcess | null)?.kill('SIGSTOP'),
    resume: () => void (child as ChildProcess | null)?.kill('SIGCONT'),
    close: async () => {
      await stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const b64 = (s: string) => Buffer.from(s).toString('base64');
const unb64 = (s: string | undefined) => Buffer.from(s ?? '', 'base64').toString();

type WatchMessage = {
  result?: { events?: { type?: 'PUT' | 'DELETE'; kv?: { key?: string; value?: string } }[] };
};

/**
 * Follow the keys under `prefix` as etcd changes them: `onChange` gets every key and value after
 * each change, when etcd's watch stream delivers it (no polling: a key's deletion and its next
 * creation are seen as they happen, at no cost in between). The keys are read once, then
 * watched from the revision read; when the stream ends (etcd stopped), they are read again as
 * soon as etcd answers, and watched from there. Stop it with `close()`.
 */
export function followPrefix(
  url: string,
  prefix: string,
  onChange: (kvs: Map<string, string>) => void,
): { close: () => void } {
  let stopped = false;
  const abort = new AbortController();
  const post = async (path: string, body: unknown) =>
    fetch(`${url}${path}`, { method: 'POST', body: JSON.stringify(body), signal: abort.signal });
  const follow = async () => {
    const read = (await (
      await post('/v3/kv/range', { key: b64(prefix), range_end: prefixEnd(prefix) })
    ).json()) as { header?: { revision?: string }; kvs?: { key?: string; value?: string }[] };
    const kvs = new Map((read.kvs ?? []).map((kv) => [unb64(kv.key), unb64(kv.value)]));
    onChange(new Map(kvs));
    const stream = await post('/v3/watch', {
      create_request: {
        key: b64(prefix),
        range_end: prefixEnd(prefix),
        start_revision: String(Number(read.header?.revision ?? '0') + 1),
      },
    });
    const decoder = new TextDecoder();
    let buffered = '';
    for await (const chunk of stream.body as unknown as AsyncIterable<Uint8Array>) {
      buffered += decoder.decode(chunk, { stream: true });
      for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
        const line = buffered.slice(0, end).trim();
        buffered = buffered.slice(end + 1);
        if (!line) continue;
        const events = (JSON.parse(line) as WatchMessage).result?.events ?? [];
        for (const e of events) {
          if (e.type === 'DELETE') kvs.delete(unb64(e.kv?.key));
          else kvs.set(unb64(e.kv?.key), unb64(e.kv?.value));
        }
        if (events.length > 0) onChange(new Map(kvs));
      }
    }
  };
  void (async () => {
    while (!stopped) {
      await follow().catch(() => undefined);
      if (!stopped) await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  return {
    close: () => {
      stopped = true;
      abort.abort();
    },
  };
}
