import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { startEmulator, type Emulator } from '../emulator/server.js';
import { err, out } from './output.js';
import { DocsyncError } from '../errors.js';
import { untilSignal } from './until-signal.js';

export async function readSeed(file: string): Promise<unknown> {
  const text = await readFile(file, 'utf8');
  return file.endsWith('.json')
    ? (JSON.parse(text) as unknown)
    : (parse(text, { maxAliasCount: 100 }) as unknown);
}

export function parseRateLimit(
  spec: string | undefined,
): { limit: number; windowSeconds: number } | undefined {
  if (!spec) return undefined;
  const m = /^(\d+)\/(\d+(?:\.\d+)?)s?$/.exec(spec);
  if (!m)
    throw new DocsyncError(
      'invalid-option',
      `--rate-limit must look like 60/10s (requests per window), got "${spec}"`,
    );
  return { limit: Number(m[1]), windowSeconds: Number(m[2]) };
}

/** `docsync emulator`: serve the API of api.md on loopback until a signal. */
export async function emulatorCommand(opts: {
  port: number;
  host: string;
  seed?: string;
  data?: string;
  token: string;
  rateLimit?: string;
  flavor?: 'seed' | 'current';
}): Promise<number> {
  let emulator: Emulator;
  try {
    const rateLimit = parseRateLimit(opts.rateLimit);
    emulator = await startEmulator({
      port: opts.port,
      host: opts.host,
      token: opts.token,
      flavor: opts.flavor ?? 'seed',
      ...(opts.seed ? { seed: await readSeed(opts.seed) } : {}),
      ...(opts.data ? { dataFile: opts.data } : {}),
      ...(rateLimit ? { rateLimit } : {}),
    });
  } catch (error) {
    err(`error: emulator could not start: ${(error as Error).message}`);
    return 1;
  }
  out(
    `docsync emulator listening on ${emulator.url} (API under ${emulator.url}/v1; control under ${emulator.url}/_emulator)`,
  );
  out(`use: DOCSYNC_API_URL=${emulator.url} DOCSYNC_TOKEN=<the --token value> docsync plan`);
  await untilSignal();
  await emulator.close();
  return 0;
}
