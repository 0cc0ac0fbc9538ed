import { join } from 'node:path';
import cron from 'node-cron';
import { Daemon, DEFAULT_ORG_CONCURRENCY, type DaemonMode } from '../daemon/daemon.js';
import { createMetrics, type Metrics } from '../daemon/metrics.js';
import { OrgControls } from '../daemon/org-controls.js';
import { RunJournal } from '../daemon/runs/journal.js';
import { RunStore } from '../daemon/runs/run-store.js';
import { startDaemonServer } from '../daemon/server.js';
import { loadNotifications } from '../notify/settings.js';
import type { NotificationProvider } from '../notify/provider.js';
import { registerUrlCredentials } from '../secrets/url-credentials.js';
import { resolveWebhookSecret } from '../daemon/webhook-secret.js';
import { isLoopback, readUiAuth, type UiAuth } from '../daemon/ui-auth.js';
import { FolderSource } from '../source/folder-source.js';
import { GitSource } from '../source/git-source.js';
import { branchNameProblem } from '../source/git-text.js';
import type { ConfigSource } from '../source/types.js';
import { makeApi, makeLogger, sourceStateDir, type CommonOptions } from './context.js';
import { makeDaemonCoordinator, type CoordinationOptions } from './coordination.js';
import { VERSION } from '../version.js';
import { parseDuration } from './duration.js';
import { untilSignal } from './until-signal.js';
import { outputTo } from './output.js';
import type { CommandRun } from './commands/wiring.js';

export type DaemonCommandOptions = CommonOptions &
  CoordinationOptions & {
    repo?: string;
    branch: string;
    path: string;
    workDir?: string;
    sshKey?: string;
    maxCheckoutBytes?: number;
    interval: string;
    /** `--org-concurrency` (DOCSYNC_ORG_CONCURRENCY): organizations synced at once. */
    orgConcurrency?: string;
    driftCron?: string;
    mode: string;
    port: number;
    host: string;
    /** Credentials for the status page, `/status` and `/api/*`: a token or `user:password`. */
    uiAuthFile?: string;
    /** Show member e-mails on the page and the JSON answers (masked by default). */
    uiShowEmails?: boolean;
    /** The demo's page is open on every address (synthetic data; no flag sets it). */
    uiOpen?: boolean;
    webhookSecret?: string;
    webhookSecretFile?: string;
    webhookInsecure?: boolean;
    webhookSecretFromFlag?: boolean;
    selfHeal: boolean;
    allowDeletes: number;
    driftReport?: string;
    notifyUrl?: string;
    /** `--notifications FILE` (DOCSYNC_NOTIFICATIONS): the notification providers. */
    notifications?: string;
    reminder: string;
    stopTimeout: string;
    configGiven: boolean;
    /** Serve the status page at `/`. */
    ui?: boolean;
  };

/** How the daemon runs inside a program that is more than the daemon (src/cli/commands/wiring.ts). */
export type DaemonRun = CommandRun;

/** `docsync daemon`: run until SIGTERM/SIGINT (or `run.stop`), then exit 0. */
export async function daemonCommand(opts: DaemonCommandOptions, run: DaemonRun = {}): Promise<number> {
  const { out, err } = outputTo(run.stdout, run.stderr);
  const logger = makeLogger(opts, 'daemon', run.stderr);
  const problem = optionProblem(opts);
  if (problem) {
    err(`error: ${problem}`);
    return 1;
  }
  let secrets: Secrets;
  try {
    secrets = await readSecrets(opts);
  } catch (error) {
    err(`error: ${(error as Error).message}`);
    return 1;
  }
  warnAboutExposure(opts, logger, secrets);
  if (opts.repo) registerUrlCredentials(opts.repo);
  // History, checkout and daemon lock belong to the source; organization locks stay in the state
  // folder, shared by every writer of this user (a CLI apply waits for the daemon's).
  const ownDir = sourceStateDir(
    opts,
    opts.repo ? { repo: opts.repo, branch: opts.branch, path: opts.path } : { config: opts.config },
  );
  const source = configSource(opts, ownDir);
  const metrics = createMetrics();
  // The process metrics' monitors are this daemon's: stopped with it (an in-process daemon leaves none).
  try {
    /** The coordinator's events reach the daemon made below. */
    const hooks: { daemon?: Daemon } = {};
    let coordinator;
    try {
      coordinator = await makeDaemonCoordinator(
        opts,
        logger,
        {
          ...metrics.coordination,
          gained: (orgs) => hooks.daemon?.ownershipGained(orgs),
          announced: () => hooks.daemon?.peerAnnounced(),
        },
        ownDir,
      );
    } catch (error) {
      err(`error: ${(error as Error).message}`);
      return 1;
    }
    const parts: Parts = { opts, logger, metrics, coordinator, ownDir, secrets };
    return await runUntilStopped(parts, source, hooks, run, out);
  } finally {
    metrics.stop();
  }
}

/** `--org-concurrency` as the daemon uses it and `optionProblem` checks it. */
const orgConcurrencyOf = (opts: DaemonCommandOptions): number =>
  Number(opts.orgConcurrency ?? DEFAULT_ORG_CONCURRENCY);

/** The first option a user got wrong, as the message says it; undefined when all are right. */
function optionProblem(opts: DaemonCommandOptions): string | undefined {
  if (opts.mode !== 'apply' && opts.mode !== 'plan')
    return `--mode must be apply or plan, got "${opts.mode}"`;
  const orgConcurrency = orgConcurrencyOf(opts);
  if (!Number.isInteger(orgConcurrency) || orgConcurrency < 1)
    return `--org-concurrency (DOCSYNC_ORG_CONCURRENCY) must be a positive integer, got "${opts.orgConcurrency}"`;
  if (opts.driftCron && !cron.validate(opts.driftCron))
    return `--drift-cron "${opts.driftCron}" is not a valid cron expression`;
  const branchProblem = opts.repo ? branchNameProblem(opts.branch) : undefined;
  if (branchProblem) return `--branch "${opts.branch}" ${branchProblem}`;
  if (
    opts.maxCheckoutBytes !== undefined &&
    !(Number.isInteger(opts.maxCheckoutBytes) && opts.maxCheckoutBytes > 0)
  )
    return '--max-checkout-bytes (DOCSYNC_MAX_CHECKOUT_BYTES) must be a positive integer';
  return undefined;
}

type Secrets = { webhookSecret?: string; notifications: NotificationProvider[]; uiAuth?: UiAuth };

/** The webhook secret, the notification providers and the page's credentials, read in this order. */
async function readSecrets(opts: DaemonCommandOptions): Promise<Secrets> {
  const webhookSecret = await resolveWebhookSecret({
    ...(opts.webhookSecret ? { value: opts.webhookSecret } : {}),
    ...(opts.webhookSecretFile ? { file: opts.webhookSecretFile } : {}),
  });
  const notifications = opts.notifications ? await loadNotifications(opts.notifications) : [];
  const uiAuth = opts.uiAuthFile ? await readUiAuth(opts.uiAuthFile) : undefined;
  return {
    ...(webhookSecret !== undefined ? { webhookSecret } : {}),
    notifications,
    ...(uiAuth ? { uiAuth } : {}),
  };
}

/** What the options leave open or shut, said once at the start. */
function warnAboutExposure(opts: DaemonCommandOptions, logger: Logger, { uiAuth, webhookSecret }: Secrets) {
  if (!uiAuth && !isLoopback(opts.host) && !opts.uiOpen)
    logger.warn(
      { host: opts.host },
      'status page, /status and /api disabled: listening beyond loopback without --ui-auth-file (DOCSYNC_UI_AUTH_FILE)',
    );
  if (opts.webhookSecretFromFlag)
    logger.warn(
      {},
      'the webhook secret was given as a flag, which shows in ps; prefer DOCSYNC_WEBHOOK_SECRET_FILE',
    );
  if (!webhookSecret && !opts.webhookInsecure)
    logger.info(
      {},
      'webhook disabled: no secret configured (DOCSYNC_WEBHOOK_SECRET_FILE) and no --webhook-insecure',
    );
}

/** A git repository's branch and path (checked out under the source's own folder), or a local folder. */
function configSource(opts: DaemonCommandOptions, ownDir: string): ConfigSource {
  return opts.repo
    ? new GitSource({
        url: opts.repo,
        branch: opts.branch,
        path: opts.path,
        workDir: opts.workDir ?? join(ownDir, 'git'),
        ...(opts.sshKey ? { sshKeyPath: opts.sshKey } : {}),
        ...(opts.maxCheckoutBytes ? { maxCheckoutBytes: opts.maxCheckoutBytes } : {}),
      })
    : new FolderSource(opts.config);
}

type Logger = ReturnType<typeof makeLogger>;
type Coordinator = Awaited<ReturnType<typeof makeDaemonCoordinator>>;
/** What the daemon is made of, ready before it is. */
type Parts = {
  opts: DaemonCommandOptions;
  logger: Logger;
  metrics: Metrics;
  coordinator: Coordinator;
  ownDir: string;
  secrets: Secrets;
};

/** Make the daemon and its server, start it, and stop everything on a signal (or `run.stop`). */
async function runUntilStopped(
  parts: Parts,
  source: ConfigSource,
  hooks: { daemon?: Daemon },
  run: DaemonRun,
  out: (line: string) => void,
): Promise<number> {
  const { opts, logger, metrics, coordinator, ownDir } = parts;
  const journal = new RunJournal(await RunStore.open(join(ownDir, 'runs.jsonl')), logger);
  // Suspensions set through the API, kept beside the run history (they survive a restart).
  const controls = await OrgControls.open(join(ownDir, 'suspended.json'));
  const api = makeApi(opts, metrics.observer, `docsync/${VERSION} (replica ${coordinator.status().replica})`);
  const daemon = new Daemon(source, api, logger, metrics, daemonOptions(parts, journal, controls));
  hooks.daemon = daemon;
  journal.subjectOf = (revision) =>
    daemon.status.source.revision === revision ? daemon.status.source.subject : undefined;
  const server = await startDaemonServer(
    daemon,
    metrics,
    logger,
    serverOptions(opts, parts.secrets, journal),
  );
  logger.info({ url: server.url }, 'daemon http server listening');
  run.ready?.(server.url);
  out(banner(opts, server.url, parts.secrets.uiAuth));
  await daemon.start();
  const signal = await untilSignal(run.stop);
  logger.info({ signal }, 'stopping');
  const lastResort = run.stop ? undefined : exitAfter(parseDuration(opts.stopTimeout), logger);
  try {
    await daemon.stop();
    // Release every organization at once (the lease's keys go with it): other replicas take over now.
    await coordinator.stop();
    await journal.store.flush();
    await server.close();
    await api.close();
  } finally {
    clearTimeout(lastResort);
  }
  return 0;
}

function daemonOptions(
  { opts, coordinator, secrets }: Parts,
  journal: RunJournal,
  controls: OrgControls,
): ConstructorParameters<typeof Daemon>[4] {
  return {
    mode: opts.mode as DaemonMode,
    intervalMs: parseDuration(opts.interval),
    ...(opts.driftCron ? { driftCron: opts.driftCron } : {}),
    selfHeal: opts.selfHeal,
    allowDeletes: opts.allowDeletes,
    stateDir: opts.stateDir,
    ...(opts.driftReport ? { driftReport: opts.driftReport } : {}),
    ...(opts.notifyUrl ? { notifyUrl: opts.notifyUrl } : {}),
    notifications: secrets.notifications,
    reminderMs: parseDuration(opts.reminder),
    stopTimeoutMs: parseDuration(opts.stopTimeout),
    orgConcurrency: orgConcurrencyOf(opts),
    journal,
    coordinator,
    controls,
    env: { ...process.env },
  };
}

function serverOptions(
  opts: DaemonCommandOptions,
  { webhookSecret, uiAuth }: Secrets,
  journal: RunJournal,
): Parameters<typeof startDaemonServer>[3] {
  return {
    port: opts.port,
    host: opts.host,
    ...(webhookSecret ? { webhookSecret } : {}),
    ...(opts.webhookInsecure ? { webhookInsecure: true } : {}),
    journal,
    ui: opts.ui !== false,
    ...(uiAuth ? { uiAuth } : {}),
    showEmails: opts.uiShowEmails === true,
    ...(opts.uiOpen ? { uiOpen: true } : {}),
    drainTimeoutMs: parseDuration(opts.stopTimeout),
  };
}

/** The line that says where the daemon listens and what it serves. */
function banner(opts: DaemonCommandOptions, url: string, uiAuth: UiAuth | undefined): string {
  return `docsync daemon (${opts.mode} mode) on ${url}: ${opts.ui !== false ? 'status page /, ' : ''}/healthz /readyz /status /metrics /api/runs, webhook POST /hooks/git${uiAuth ? ' (page, /status, /api: credentials of --ui-auth-file)' : isLoopback(opts.host) ? '' : opts.uiOpen ? ' (page, /status, /api: open, demo data only)' : ' (page, /status, /api: disabled beyond loopback without --ui-auth-file)'}`;
}

/**
 * The last guarantee of --stop-timeout: if anything still holds the process (a request or a child
 * that ignores its stop), exit anyway once the timeout has passed. Unref'd, and cleared by a clean
 * stop, which returns earlier.
 */
function exitAfter(ms: number, logger: Logger): NodeJS.Timeout {
  return setTimeout(() => {
    logger.warn({ stopTimeoutMs: ms }, 'stop timeout passed; exiting');
    process.exit(0);
  }, ms).unref();
}
