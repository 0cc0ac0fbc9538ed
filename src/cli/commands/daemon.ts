import type { Command } from 'commander';
import { coordinationOptions, withCoordination } from '../coordination-flags.js';
import { boolean, durationText, httpUrl, setting, wholeNumber } from '../settings.js';
import { common, lazy, withCommon, type CommandWiring } from './wiring.js';

const daemonCommand = lazy(() => import('../daemon.js'), 'daemonCommand');

/** Where the config comes from: the folder, or a git repository. */
const sourceFlags = (cmd: Command) =>
  cmd
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
    );

/** When and how it syncs. */
const scheduleFlags = (cmd: Command) =>
  cmd
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
    );

/** Its HTTP server: listen address, the status page's access, the git webhook. */
const httpFlags = (cmd: Command) =>
  cmd
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
    .option('--webhook-insecure', 'accept unsigned POST /hooks/git when no secret is configured');

/** What it does about drift, how it reports it, how it stops, and the status page. */
const reportFlags = (cmd: Command) =>
  cmd
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
      setting(
        '--notifications <file>',
        'YAML file of notification providers (slack, msteams, generic-hmac, github) and the events each takes',
        { env: 'DOCSYNC_NOTIFICATIONS' },
      ),
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
    );

/** The options of `daemonCommand`, from the flags. */
const daemonOptions = (o: Record<string, unknown>, cmd: Command) => ({
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
  ...(o['notifications'] ? { notifications: String(o['notifications']) } : {}),
  reminder: String(o['reminder']),
  stopTimeout: String(o['stopTimeout']),
  ui: o['ui'] !== false,
  configGiven: cmd.getOptionValueSource('config') === 'cli',
});

export const daemon: CommandWiring = {
  name: 'daemon',
  examples: [
    'docsync daemon --config config --mode plan --port 8080',
    'docsync daemon --repo https://github.com/acme/docs-config.git --branch main --mode apply',
  ],
  wire: (cmd, { setExit, run }) =>
    reportFlags(httpFlags(scheduleFlags(sourceFlags(withCoordination(withCommon(cmd))))))
      .description('the long-running worker: watch the config, sync, report drift (until SIGTERM/SIGINT)')
      .action(async (o: Record<string, unknown>, c: Command) =>
        setExit(await daemonCommand(daemonOptions(o, c), run)),
      ),
};
