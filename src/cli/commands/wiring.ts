import type { Command } from 'commander';
import { Option } from 'commander';
import { DEFAULT_MAX_RESPONSE_BYTES } from '../../api/limits.js';
import {
  DEFAULT_API_URL,
  DEFAULT_MAX_CONCURRENCY,
  defaultStateDir,
  flavorOptions,
  STATE_DIR_SHOWN,
  type CommonOptions,
} from '../defaults.js';
import { httpUrl, LOG_LEVELS, setting, wholeNumber } from '../settings.js';

/** Sets the process's exit code (main() returns it). */
export type SetExit = (code: number) => void;

/**
 * A command run inside a program that is more than the command (the demo, the tests): told when
 * it listens, stopped by that program, writing where it says. The daemon heeds it.
 */
export type CommandRun = {
  /** Called with the command's HTTP address once it listens. */
  ready?: (url: string) => void;
  /**
   * Stop as on SIGTERM when this aborts. Then the process's own signals are not listened to, and
   * a stop that outlasts --stop-timeout never exits the process (it is not the command's).
   */
  stop?: AbortSignal;
  /** Where its lines and its log go (default: the process's stdout and stderr). */
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
};

/**
 * One command's wiring: its flags, help and action on the commander program. Adding a command is
 * one file exporting one of these and one line in `COMMANDS` (src/cli/commands/index.ts).
 */
export type CommandWiring = {
  /** `docsync <name>`. */
  name: string;
  /** Shown at the end of its `--help`; each line works as pasted. */
  examples: readonly string[];
  /** Declares the description, flags and action on `cmd`, the command the program made for `name`. */
  wire: (cmd: Command, run: { setExit: SetExit; program: Command; run?: CommandRun }) => void;
  /** It reads the other commands from `program` when it runs (completion): they are wired too. */
  readsProgram?: true;
};

/**
 * A command whose module is imported only when it runs: `plan` does not pay for loading the
 * daemon (chokidar, prom-client, node-cron, simple-git), the emulator or the GitHub client.
 */
export const lazy = <M, K extends keyof M>(load: () => Promise<M>, name: K) =>
  (async (...args: unknown[]) => ((await load())[name] as (...a: unknown[]) => unknown)(...args)) as M[K];

export const formatOption = () =>
  new Option('-o, --format <format>', 'output format').choices(['text', 'json', 'markdown']).default('text');

export const configOption = () =>
  setting('--config <dir>', 'config folder', { env: 'DOCSYNC_CONFIG', default: './config' });

export const stateDirOption = (description: string) =>
  setting('--state-dir <dir>', description, { env: 'DOCSYNC_STATE_DIR', shown: STATE_DIR_SHOWN });

/** Shared flags of network commands; flag > environment > default, each checked by its parser. */
export function withCommon(cmd: Command): Command {
  return cmd
    .addOption(configOption())
    .addOption(
      setting('--api-url <url>', 'API base URL, with or without /v1', {
        env: 'DOCSYNC_API_URL',
        parse: httpUrl,
        default: DEFAULT_API_URL,
      }),
    )
    .addOption(
      setting('--log-level <level>', 'log level', {
        env: 'DOCSYNC_LOG_LEVEL',
        choices: LOG_LEVELS,
        default: 'info',
      }),
    )
    .addOption(
      setting('--concurrency <n>', 'concurrent API requests', {
        env: 'DOCSYNC_CONCURRENCY',
        parse: wholeNumber(1),
        default: 4,
      }),
    )
    .addOption(
      setting(
        '--max-concurrency <n>',
        "most concurrent API requests: above --concurrency, grows to what the API's rate-limit headers allow at the latency seen (the value of --concurrency keeps it fixed)",
        { env: 'DOCSYNC_MAX_CONCURRENCY', parse: wholeNumber(1), default: DEFAULT_MAX_CONCURRENCY },
      ),
    )
    .addOption(
      setting('--timeout <seconds>', 'deadline of one API request attempt, from connect to the last byte', {
        env: 'DOCSYNC_TIMEOUT',
        parse: wholeNumber(1),
        default: 30,
      }),
    )
    .addOption(
      setting('--max-response-bytes <n>', 'largest API answer accepted', {
        env: 'DOCSYNC_MAX_RESPONSE_BYTES',
        parse: wholeNumber(1024),
        default: DEFAULT_MAX_RESPONSE_BYTES,
        shown: '64 MiB',
      }),
    )
    .addOption(stateDirOption('folder for run history, locks and the git checkout'))
    .addOption(
      setting(
        '--api-flavor <flavor>',
        "seed: the API of api.md; current: today's service (env DOCSYNC_API_FLAVOR; default: current for api.gitbook.com, seed for any other URL)",
        { choices: ['seed', 'current'] },
      ),
    );
}

/** The options of `withCommon`, as the commands take them. */
export function common(o: Record<string, unknown>): CommonOptions {
  return {
    config: String(o['config']),
    apiUrl: String(o['apiUrl']),
    logLevel: String(o['logLevel']),
    concurrency: Number(o['concurrency']),
    maxConcurrency: Number(o['maxConcurrency']),
    timeout: Number(o['timeout']),
    maxResponseBytes: Number(o['maxResponseBytes']),
    stateDir: o['stateDir'] === undefined ? defaultStateDir() : String(o['stateDir']),
    stateDirGiven: o['stateDir'] !== undefined,
    ...flavorOptions(o['apiFlavor'] === undefined ? undefined : String(o['apiFlavor']), String(o['apiUrl'])),
  };
}
