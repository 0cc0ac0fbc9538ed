import { isAbsolute, join, relative } from 'node:path';
import { startEmulator } from '../emulator/server.js';
import { isLoopback } from '../daemon/ui-auth.js';
import { declareNotSecret } from '../secrets/registry.js';
import { commonDefaults, flavorOptions, sourceStateDir } from './context.js';
import { daemonCommand, type DaemonCommandOptions } from './daemon.js';
import { readSeed } from './emulator.js';
import { err, out } from './output.js';
import { portTaken } from './port-check.js';
import { packageRoot } from '../package-root.js';

/** The emulator's token in the demo: public by construction, so printed commands work when pasted. */
export const DEMO_TOKEN = 'dev-token';
/** The emulator's address: always loopback (the daemon is what a browser opens). */
const HOST = '127.0.0.1';

type DemoOptions = {
  port: number;
  emulatorPort: number;
  config?: string;
  /** The daemon's listen address: loopback, or 0.0.0.0 in the image (DOCSYNC_HOST) so `docker run -p` reaches it. */
  host?: string;
};

/**
 * `npm start`: the emulator in-process, seeded from examples/, and the daemon on config/ in
 * apply mode against it, so a newcomer can watch a sync happen.
 */
export async function demoCommand(opts: DemoOptions): Promise<number> {
  const host = opts.host ?? HOST;
  // The seed and the config the npm package and the image carry beside dist/.
  const root = packageRoot() ?? process.cwd();
  const taken = await portProblem(opts, host);
  if (taken) {
    err(taken);
    return 1;
  }
  declareNotSecret(DEMO_TOKEN);
  const emulator = await startEmulator({
    port: opts.emulatorPort,
    host: HOST,
    token: DEMO_TOKEN,
    seed: await readSeed(join(root, 'examples', 'emulator-seed.yaml')),
  });
  process.env['DOCSYNC_TOKEN'] = DEMO_TOKEN;
  const config = opts.config ?? join(root, 'config');
  const shown = relative(process.cwd(), config);
  const configArg = shown && !shown.startsWith('..') && !isAbsolute(shown) ? shown : config;
  out(`emulator: ${emulator.url}/v1 (token ${DEMO_TOKEN}; state at ${emulator.url}/_emulator/state)`);
  out(`config:   ${config} (edit it and watch the daemon apply the change)`);
  const code = await daemonCommand(demoDaemon(opts.port, host, config, emulator.url), {
    ready: (listening) => tryThese(browsable(listening), emulator.url, configArg),
  });
  await emulator.close();
  return code;
}

/** The error to print when the emulator's or the daemon's port is taken, naming the flag that moves it. */
async function portProblem(opts: DemoOptions, host: string): Promise<string | undefined> {
  for (const [flag, port, on] of [
    ['--emulator-port', opts.emulatorPort, HOST],
    ['--port', opts.port, host],
  ] as const) {
    const taken = await portTaken(on, port);
    if (taken)
      return `error: cannot listen on ${on}:${port} (${taken}): another program uses it. Choose another port with ${flag}, for example: npm start -- ${flag} ${port + 1}`;
  }
  return undefined;
}

/** The daemon of the demo: apply mode on the config, against the emulator, with its own state folder. */
function demoDaemon(port: number, host: string, config: string, emulatorUrl: string): DaemonCommandOptions {
  const defaults = commonDefaults();
  return {
    ...defaults,
    // The demo's own state folder, everything in it (organization locks too): it never meets
    // the history, locks or checkout of another daemon of this user.
    stateDir: sourceStateDir({ ...defaults, stateDirGiven: false }, { config }),
    stateDirGiven: true,
    config,
    apiUrl: emulatorUrl,
    ...flavorOptions(undefined, emulatorUrl),
    branch: 'main',
    path: '.',
    interval: '10s',
    driftCron: '* * * * *',
    mode: 'apply',
    port,
    host,
    // The container's demo listens on 0.0.0.0 so `docker run -p` reaches it: its page shows only
    // the emulator's synthetic organization, so it is served without credentials (a daemon never is).
    ...(isLoopback(host) ? {} : { uiOpen: true }),
    selfHeal: true,
    allowDeletes: 0,
    reminder: '1h',
    stopTimeout: '20s',
    configGiven: true,
  };
}

/** Where to look and what to try, once the daemon listens (each command works as pasted). */
function tryThese(url: string, emulatorUrl: string, configArg: string): void {
  out(`page:     ${url}/ (open it in a browser: deployed, pending, last runs)`);
  out(`status:   ${url}/status`);
  out(`metrics:  ${url}/metrics`);
  out('');
  out('Try these (each line works as pasted):');
  out(`curl -s ${url}/status`);
  out(
    `DOCSYNC_API_URL=${emulatorUrl} DOCSYNC_TOKEN=${DEMO_TOKEN} npx docsync plan --config ${quote(configArg)}`,
  );
  out('Make drift by hand; the next drift check (every minute) removes the team again:');
  out(
    `curl -s -X PUT --oauth2-bearer ${DEMO_TOKEN} -H 'content-type: application/json' -d '{"title":"Made by hand"}' ${emulatorUrl}/v1/orgs/org_demo/teams`,
  );
  out('');
}

/** A listen address as a browser opens it: every interface (0.0.0.0, ::) is reached on loopback. */
function browsable(url: string): string {
  return url.replace(/^http:\/\/(0\.0\.0\.0|\[?::\]?)(?=:\d+$)/, 'http://127.0.0.1');
}

/** A path as one shell word. */
function quote(path: string): string {
  return /^[\w./-]+$/.test(path) ? path : `'${path.replace(/'/g, "'\\''")}'`;
}
