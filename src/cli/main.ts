import { Argument, Command, Option } from 'commander';
import { DEFAULT_MAX_RESPONSE_BYTES } from '../api/http.js';
import { buildCommit } from '../build-info.js';
import { VERSION } from '../version.js';
import {
  commonDefaults,
  DEFAULT_API_URL,
  defaultStateDir,
  flavorOptions,
  STATE_DIR_SHOWN,
  type CommonOptions,
} from './context.js';
import { coordinationOptions, withCoordination } from './coordination-flags.js';
import { controlOptions, withControls } from './controls.js';
import {
  boolean,
  dropEmptyEnv,
  duration,
  durationText,
  httpUrl,
  LOG_LEVELS,
  setting,
  wholeNumber,
} from './settings.js';
import { errorCode } from '../errors.js';
import { effectiveLogLevel } from './log-level.js';
import { completionScript, shells, type Shell } from './completion.js';
import { err, out } from './output.js';
import { driftCommand, planCommand, type Format } from './plan.js';

/**
 * A command whose module is imported only when it runs: `plan` does not pay for loading the
 * daemon (chokidar, prom-client, node-cron, simple-git), the emulator or the GitHub client.
 */
const lazy = <M, K extends keyof M>(load: () => Promise<M>, name: K) =>
  (async (...args: unknown[]) => ((await load())[name] as (...a: unknown[]) => unknown)(...args)) as M[K];
const applyCommand = lazy(() => import('./apply.js'), 'applyCommand');
const commentCommand = lazy(() => import('./comment.js'), 'commentCommand');
const daemonCommand = lazy(() => import('./daemon.js'), 'daemonCommand');
const demoCommand = lazy(() => import('./demo.js'), 'demoCommand');
const emulatorCommand = lazy(() => import('./emulator.js'), 'emulatorCommand');
const exportCommand = lazy(() => import('./export.js'), 'exportCommand');
const unlockCommand = lazy(() => import('./unlock.js'), 'unlockCommand');
const validateCommand = lazy(() => import('./validate.js'), 'validateCommand');

const formatOption = () =>
  new Option('-o, --format <format>', 'output format').choices(['text', 'json', 'markdown']).default('text');

/** One example per command, shown at the end of its `--help` (each line works as pasted). */
export const EXAMPLES: Record<string, string[]> = {
  validate: ['docsync validate --config config'],
  plan: [
    'DOCSYNC_TOKEN=... docsync plan --config config',
    'docsync plan -o json --out plan.json --detailed-exitcode',
  ],
  apply: ['docsync apply --config config', 'docsync apply --plan plan.json --yes'],
  drift: ['docsync drift --config config -o markdown --out drift.md'],
  comment: ['GITHUB_TOKEN=... docsync comment --config config --pr 12 --repository acme/docs-config'],
  unlock: ['docsync unlock --org org_abc'],
  export: ['docsync export --org org_abc --out ./config'],
  daemon: [
    'docsync daemon --config config --mode plan --port 8080',
    'docsync daemon --repo https://github.com/acme/docs-config.git --branch main --mode apply',
  ],
  emulator: ['docsync emulator --seed examples/emulator-seed.yaml --port 4010'],
  demo: ['docsync demo --port 8080'],
  completion: [
    'docsync completion bash > ~/.local/share/bash-completion/completions/docsync',
    'source <(docsync completion zsh)',
    'docsync completion fish > ~/.config/fish/completions/docsync.fish',
  ],
  version: ['docsync version', 'docsync version -o json'],
};

/** Append each command's examples to its help. */
function addExamples(program: Command): void {
  for (const cmd of program.commands) {
    const lines = EXAMPLES[cmd.name()];
    if (!lines) continue;
    cmd.addHelpText(
      'after',
      `\nExample${lines.length > 1 ? 's' : ''}:\n${lines.map((l) => `  $ ${l}`).join('\n')}`,
    );
  }
  program.addHelpText(
    'after',
    '\nExamples:\n  $ docsync plan --config config\n  $ docsync help plan\n  $ docsync completion bash',
  );
}

const configOption = () =>
  setting('--config <dir>', 'config folder', { env: 'DOCSYNC_CONFIG', default: './config' });

/** Shared flags of network commands; flag > environment > default, each checked by its parser. */
function withCommon(cmd: Command): Command {
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

const stateDirOption = (description: string) =>
  setting('--state-dir <dir>', description, { env: 'DOCSYNC_STATE_DIR', shown: STATE_DIR_SHOWN });

function common(o: Record<string, unknown>): CommonOptions {
  return {
    config: String(o['config']),
    apiUrl: String(o['apiUrl']),
    logLevel: String(o['logLevel']),
    concurrency: Number(o['concurrency']),
    timeout: Number(o['timeout']),
    maxResponseBytes: Number(o['maxResponseBytes']),
    stateDir: o['stateDir'] === undefined ? defaultStateDir() : String(o['stateDir']),
    stateDirGiven: o['stateDir'] !== undefined,
    ...flavorOptions(o['apiFlavor'] === undefined ? undefined : String(o['apiFlavor']), String(o['apiUrl'])),
  };
}

export function buildProgram(setExit: (code: number) => void): Command {
  const program = new Command('docsync')
    .description(
      'GitOps for your documentation platform: plan and apply sites, sections, share links, custom fields and teams from YAML.',
    )
    .version(VERSION)
    // Commander throws instead of calling process.exit, here and in every subcommand (they
    // inherit it): main() turns that into the exit code.
    .exitOverride()
    .configureOutput({ outputError: (text) => err(text.trimEnd()) })
    .hook('preAction', (_program, command) => {
      if (command.getOptionValue('logLevel') === undefined) return;
      command.setOptionValue(
        'logLevel',
        effectiveLogLevel({
          command: command.name(),
          level: String(command.getOptionValue('logLevel')),
          explicit: command.getOptionValueSource('logLevel') !== 'default',
          stderrIsTty: process.stderr.isTTY === true,
        }),
      );
    });

  program
    .command('validate')
    .description('load and check the YAML; no network (exit 0 valid, 1 invalid)')
    .addOption(configOption())
    .action(async (o: { config: string }) => setExit(await validateCommand(o)));

  withControls(withCommon(program.command('plan')))
    .description('read live state and print the ordered changes; never writes')
    .addOption(formatOption())
    .option('--out <file>', 'also write the JSON plan (for apply --plan)')
    .option('--detailed-exitcode', 'exit 2 when there are changes, 0 when none')
    .action(async (o: Record<string, unknown>) =>
      setExit(
        await planCommand({
          ...common(o),
          ...controlOptions(o),
          format: o['format'] as Format,
          ...(o['out'] ? { out: String(o['out']) } : {}),
          detailedExitcode: Boolean(o['detailedExitcode']),
        }),
      ),
    );

  withControls(withCoordination(withCommon(program.command('apply'))), true)
    .description('plan, then apply; asks for confirmation on a TTY unless --yes')
    .option('--yes', 'apply without asking')
    .option('--allow-deletes <n>', 'allow a plan with up to N deletions past the guards', wholeNumber(0), 0)
    .option('--plan <file>', 'apply a saved plan (plan --out), if live state has not changed since')
    .addOption(
      setting('--lock-wait <duration>', 'wait this long for another writer to finish (seconds, or 30s, 2m)', {
        parse: (v: string) => duration(v) / 1000,
        default: 0,
        shown: '0s',
      }),
    )
    .addOption(formatOption())
    .action(async (o: Record<string, unknown>) =>
      setExit(
        await applyCommand({
          ...common(o),
          ...controlOptions(o),
          ...coordinationOptions(o),
          yes: Boolean(o['yes']),
          allowDeletes: Number(o['allowDeletes']),
          format: o['format'] as Format,
          lockWait: Number(o['lockWait']),
          ...(o['plan'] ? { plan: String(o['plan']) } : {}),
        }),
      ),
    );

  withControls(withCommon(program.command('drift')))
    .description('the plan as a drift report (exit 0 in sync, 2 drift, 1 error)')
    .addOption(formatOption())
    .option('--out <file>', 'also write the report to a file')
    .action(async (o: Record<string, unknown>) =>
      setExit(
        await driftCommand({
          ...common(o),
          ...controlOptions(o),
          format: o['format'] as Format,
          ...(o['out'] ? { out: String(o['out']) } : {}),
        }),
      ),
    );

  withCommon(program.command('comment'))
    .description('post the plan on a GitHub pull request as one sticky comment')
    .option('--pr <n>', 'pull request number (default: from GITHUB_EVENT_PATH)', wholeNumber(1))
    .option('--repository <owner/name>', 'repository (default: GITHUB_REPOSITORY)')
    .addOption(
      setting('--github-api-url <url>', 'GitHub API (GitHub Enterprise: https://HOST/api/v3)', {
        env: 'GITHUB_API_URL',
        parse: httpUrl,
        default: 'https://api.github.com',
      }),
    )
    .option('--base-config <dir>', "the base branch's config: mark which changes the pull request introduces")
    .option('--plan-file <file>', 'comment a saved JSON plan instead of planning')
    .option('--artifact-url <url>', 'where the full plan is, named when the comment is cut')
    .option('--skip-no-changes', 'post nothing when there are no changes')
    .action(async (o: Record<string, unknown>) =>
      setExit(
        await commentCommand({
          ...common(o),
          ...(o['pr'] ? { pr: Number(o['pr']) } : {}),
          ...(o['repository'] ? { repository: String(o['repository']) } : {}),
          githubApiUrl: String(o['githubApiUrl']),
          ...(o['baseConfig'] ? { baseConfig: String(o['baseConfig']) } : {}),
          ...(o['planFile'] ? { planFile: String(o['planFile']) } : {}),
          ...(o['artifactUrl'] ? { artifactUrl: String(o['artifactUrl']) } : {}),
          skipNoChanges: Boolean(o['skipNoChanges']),
        }),
      ),
    );

  program
    .command('unlock')
    .description("clear an organization's lock whose holder is gone (asks on a TTY; exit 0, 1)")
    .requiredOption('--org <id>', 'organization id')
    .addOption(stateDirOption('folder for locks'))
    .option('--yes', 'do not ask (required off a terminal)')
    .option('--force', 'unlock even when the holder still runs on this host')
    .action(async (o: Record<string, unknown>) =>
      setExit(
        await unlockCommand({
          org: String(o['org']),
          stateDir: o['stateDir'] === undefined ? defaultStateDir() : String(o['stateDir']),
          yes: Boolean(o['yes']),
          force: Boolean(o['force']),
        }),
      ),
    );

  withCommon(program.command('export'))
    .description('write the live state of an organization as docsync YAML (reads only)')
    .requiredOption('--org <id>', 'organization id')
    .option('--out <dir>', 'output folder', './config')
    .option('--force', 'write into a folder that is not empty')
    .action(async (o: Record<string, unknown>) =>
      setExit(
        await exportCommand({
          ...common(o),
          org: String(o['org']),
          out: String(o['out']),
          force: Boolean(o['force']),
        }),
      ),
    );

  withCoordination(withCommon(program.command('daemon')))
    .description('the long-running worker: watch the config, sync, report drift (until SIGTERM/SIGINT)')
    .option('--repo <url>', 'git repository to clone and fetch (instead of watching --config)')
    .option('--branch <name>', 'branch of --repo', 'main')
    .option('--path <path>', 'config folder inside --repo', '.')
    .option(
      '--work-dir <dir>',
      'where --repo is cloned (default: the git folder of the state folder of this source)',
    )
    .option('--ssh-key <file>', 'private key for an SSH --repo')
    .addOption(
      setting(
        '--max-checkout-bytes <n>',
        'largest --repo accepted: its objects and its working tree (default 512 MiB)',
        { env: 'DOCSYNC_MAX_CHECKOUT_BYTES', parse: wholeNumber(1) },
      ),
    )
    .addOption(
      setting('--interval <duration>', 'how often the source is polled', {
        env: 'DOCSYNC_INTERVAL',
        parse: durationText,
        default: '60s',
        shown: '60s',
      }),
    )
    .addOption(
      setting('--org-concurrency <n>', 'how many organizations sync at once, each in its own queue', {
        env: 'DOCSYNC_ORG_CONCURRENCY',
        parse: wholeNumber(1),
        default: 4,
      }),
    )
    .addOption(
      setting('--drift-cron <expr>', 'drift check schedule', {
        env: 'DOCSYNC_DRIFT_CRON',
        default: '*/15 * * * *',
      }),
    )
    .addOption(
      setting('--mode <mode>', 'apply or plan', {
        env: 'DOCSYNC_MODE',
        choices: ['apply', 'plan'],
        default: 'plan',
      }),
    )
    .addOption(
      setting('--port <n>', 'HTTP port', { env: 'DOCSYNC_PORT', parse: wholeNumber(0), default: 8080 }),
    )
    .addOption(
      setting('--host <host>', 'HTTP listen address (the container image sets 0.0.0.0)', {
        env: 'DOCSYNC_HOST',
        default: '127.0.0.1',
      }),
    )
    .addOption(
      setting(
        '--ui-auth-file <file>',
        'file holding a bearer token or user:password for the status page, /status and /api (required to serve them beyond loopback)',
        { env: 'DOCSYNC_UI_AUTH_FILE' },
      ),
    )
    .addOption(
      setting(
        '--ui-show-emails [on]',
        'show member e-mails on the status page, /status and /api (masked by default)',
        {
          env: 'DOCSYNC_UI_SHOW_EMAILS',
          parse: boolean,
        },
      ),
    )
    .addOption(
      setting('--webhook-secret <secret>', 'secret of POST /hooks/git (prefer the file: flags show in ps)', {
        env: 'DOCSYNC_WEBHOOK_SECRET',
      }),
    )
    .addOption(
      setting('--webhook-secret-file <file>', 'file holding the secret of POST /hooks/git', {
        env: 'DOCSYNC_WEBHOOK_SECRET_FILE',
      }),
    )
    .option('--webhook-insecure', 'accept unsigned POST /hooks/git when no secret is configured')
    .option('--no-self-heal', 'in apply mode, only report drift found by the schedule')
    .option('--allow-deletes <n>', 'allow plans with up to N deletions past the guards', wholeNumber(0), 0)
    .option('--drift-report <file>', 'write each drift report to this file (.json or markdown)')
    .addOption(
      setting('--notify-url <url>', 'POST drift reports to this webhook (Slack-compatible)', {
        env: 'DOCSYNC_NOTIFY_URL',
        parse: httpUrl,
      }),
    )
    .addOption(
      setting('--reminder <duration>', 'notify again about unchanged drift after this long', {
        parse: durationText,
        default: '24h',
        shown: '24h',
      }),
    )
    .addOption(
      setting('--stop-timeout <duration>', 'how long a graceful stop may take', {
        parse: durationText,
        default: '30s',
        shown: '30s',
      }),
    )
    .addOption(
      setting('--ui <on>', 'serve the read-only status page at / (true or false)', {
        env: 'DOCSYNC_UI',
        parse: boolean,
        default: true,
      }),
    )
    .action(async (o: Record<string, unknown>, cmd: Command) =>
      setExit(
        await daemonCommand({
          ...common(o),
          ...coordinationOptions(o),
          ...(o['repo'] ? { repo: String(o['repo']) } : {}),
          branch: String(o['branch']),
          path: String(o['path']),
          ...(o['workDir'] ? { workDir: String(o['workDir']) } : {}),
          ...(o['sshKey'] ? { sshKey: String(o['sshKey']) } : {}),
          ...(o['maxCheckoutBytes'] !== undefined ? { maxCheckoutBytes: Number(o['maxCheckoutBytes']) } : {}),
          interval: String(o['interval']),
          orgConcurrency: String(o['orgConcurrency']),
          ...(o['driftCron'] ? { driftCron: String(o['driftCron']) } : {}),
          mode: String(o['mode']),
          port: Number(o['port']),
          host: String(o['host']),
          ...(o['uiAuthFile'] ? { uiAuthFile: String(o['uiAuthFile']) } : {}),
          uiShowEmails: o['uiShowEmails'] === true,
          ...(o['webhookSecret'] ? { webhookSecret: String(o['webhookSecret']) } : {}),
          ...(o['webhookSecretFile'] ? { webhookSecretFile: String(o['webhookSecretFile']) } : {}),
          webhookInsecure: Boolean(o['webhookInsecure']),
          webhookSecretFromFlag: cmd.getOptionValueSource('webhookSecret') === 'cli',
          selfHeal: o['selfHeal'] !== false,
          allowDeletes: Number(o['allowDeletes']),
          ...(o['driftReport'] ? { driftReport: String(o['driftReport']) } : {}),
          ...(o['notifyUrl'] ? { notifyUrl: String(o['notifyUrl']) } : {}),
          reminder: String(o['reminder']),
          stopTimeout: String(o['stopTimeout']),
          ui: o['ui'] !== false,
          configGiven: cmd.getOptionValueSource('config') === 'cli',
        }),
      ),
    );

  program
    .command('emulator')
    .description('serve the local API emulator (until a signal)')
    .option('--port <n>', 'port', wholeNumber(0), 4010)
    .option('--host <host>', 'listen address (loopback)', '127.0.0.1')
    .option('--seed <file>', 'initial state (YAML or JSON)')
    .option('--data <file>', 'persist state to this file (survives restarts)')
    .option('--token <token>', 'the bearer token to accept', 'dev-token')
    .option('--rate-limit <spec>', 'rate limit, e.g. 60/10s (off by default)')
    .addOption(
      new Option('--flavor <flavor>', "seed: api.md; current: today's API where they differ")
        .choices(['seed', 'current'])
        .default('seed'),
    )
    .action(
      async (o: {
        flavor: 'seed' | 'current';
        port: number;
        host: string;
        seed?: string;
        data?: string;
        token: string;
        rateLimit?: string;
      }) => setExit(await emulatorCommand(o)),
    );

  program
    .command('demo')
    .description('npm start: the emulator seeded from examples/ and the daemon on config/ in apply mode')
    .addOption(
      setting('--port <n>', 'daemon HTTP port', {
        env: 'DOCSYNC_PORT',
        parse: wholeNumber(0),
        default: 8080,
      }),
    )
    .option('--emulator-port <n>', 'emulator port', wholeNumber(0), 4010)
    .option('--config <dir>', 'config folder')
    .addOption(
      setting('--host <host>', "the daemon's listen address (the image sets 0.0.0.0)", {
        env: 'DOCSYNC_HOST',
        default: '127.0.0.1',
      }),
    )
    .action(async (o: { port: number; emulatorPort: number; config?: string; host: string }) =>
      setExit(await demoCommand(o)),
    );

  program
    .command('completion')
    .description('print the shell completion script (bash, zsh or fish)')
    .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(shells))
    .action((shell: Shell) => {
      out(completionScript(program, shell));
      setExit(0);
    });

  program
    .command('version')
    .description('print the version, the commit it was built from and the default API flavor')
    .addOption(new Option('-o, --format <format>', 'output format').choices(['text', 'json']).default('text'))
    .action((o: { format: 'text' | 'json' }) => {
      out(versionText(o.format));
      setExit(0);
    });

  addExamples(program);
  return program;
}

/** `docsync version`: the version, the build commit and the API flavor the next command would speak by default. */
function versionText(format: 'text' | 'json'): string {
  const d = commonDefaults();
  const info = {
    version: VERSION,
    commit: buildCommit(),
    apiUrl: d.apiUrl,
    apiFlavor: d.apiFlavor,
    apiFlavorFrom: d.apiFlavorFrom ?? 'api-url',
    node: process.version,
  };
  if (format === 'json') return JSON.stringify(info, null, 2);
  const from =
    info.apiFlavorFrom === 'env'
      ? 'from DOCSYNC_API_FLAVOR'
      : `for ${info.apiUrl}: current for https://api.gitbook.com, seed for any other API URL`;
  return [
    `docsync ${info.version}`,
    `commit:     ${info.commit}`,
    `api flavor: ${info.apiFlavor} (${from}; --api-flavor or DOCSYNC_API_FLAVOR overrides)`,
    `node:       ${info.node}`,
  ].join('\n');
}

/** `--log-level debug` (or trace), as a flag or DOCSYNC_LOG_LEVEL: an error shows its stack too. */
function debugging(argv: readonly string[]): boolean {
  const i = argv.findIndex((a) => a === '--log-level' || a.startsWith('--log-level='));
  const level =
    i < 0 ? process.env['DOCSYNC_LOG_LEVEL'] : argv[i]!.includes('=') ? argv[i]!.split('=')[1] : argv[i + 1];
  return level === 'debug' || level === 'trace';
}

export async function main(argv: string[]): Promise<number> {
  let code = 0;
  try {
    dropEmptyEnv();
    const program = buildProgram((c) => (code = c));
    await program.parseAsync(argv);
  } catch (error) {
    const e = error as { code?: string; exitCode?: number; message?: string; stack?: string };
    if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version') return 0;
    if (e.code?.startsWith('commander.')) return e.exitCode ?? 1;
    const stable = errorCode(error);
    // A user's mistake is one line; the stack is for debugging (--log-level debug).
    err(`error: ${e.message ?? String(error)}${stable ? ` [${stable}]` : ''}`);
    if (debugging(argv) && e.stack) err(e.stack);
    return 1;
  }
  return code;
}
