import { isAbsolute, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmulator } from '../emulator/server.js';
import { declareNotSecret } from '../secrets/registry.js';
import { commonDefaults, flavorOptions, sourceStateDir } from './context.js';
import { daemonCommand } from './daemon.js';
import { readSeed } from './emulator.js';
import { err, out } from './output.js';
import { portTaken } from './port-check.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The emulator's token in the demo: public by construction, so printed commands work when pasted. */
export const DEMO_TOKEN = 'dev-token';
const HOST = '127.0.0.1';

/**
 * `npm start`: the emulator in-process, seeded from examples/, and the daemon on config/ in
 * apply mode against it, so a newcomer can watch a sync happen.
 */
export async function demoCommand(opts: {
  port: number;
  emulatorPort: number;
  config?: string;
}): Promise<number> {
  for (const [flag, port] of [
    ['--emulator-port', opts.emulatorPort],
    ['--port', opts.port],
  ] as const) {
    const taken = await portTaken(HOST, port);
    if (taken) {
      err(
        `error: cannot listen on ${HOST}:${port} (${taken}): another program uses it. Choose another port with ${flag}, for example: npm start -- ${flag} ${port + 1}`,
      );
      return 1;
    }
  }
  declareNotSecret(DEMO_TOKEN);
  const emulator = await startEmulator({
    port: opts.emulatorPort,
    host: HOST,
    token: DEMO_TOKEN,
    seed: await readSeed(`${root}examples/emulator-seed.yaml`),
  });
  process.env['DOCSYNC_TOKEN'] = DEMO_TOKEN;
  const config = opts.config ?? `${root}config`;
  const shown = relative(process.cwd(), config);
  const configArg = shown && !shown.startsWith('..') && !isAbsolute(shown) ? shown : config;
  out(`emulator: ${emulator.url}/v1 (token ${DEMO_TOKEN}; state at ${emulator.url}/_emulator/state)`);
  out(`config:   ${config} (edit it and watch the daemon apply the change)`);
  const defaults = commonDefaults();
  const code = await daemonCommand(
    {
      ...defaults,
      // The demo's own state folder, everything in it (organization locks too): it never meets
      // the history, locks or checkout of another daemon of this user.
      stateDir: sourceStateDir({ ...defaults, stateDirGiven: false }, { config }),
      stateDirGiven: true,
      config,
      apiUrl: emulator.url,
      ...flavorOptions(undefined, emulator.url),
      branch: 'main',
      path: '.',
      interval: '10s',
      driftCron: '* * * * *',
      mode: 'apply',
      port: opts.port,
      host: HOST,
      selfHeal: true,
      allowDeletes: 0,
      reminder: '1h',
      stopTimeout: '20s',
      configGiven: true,
    },
    (url) => {
      out(`page:     ${url}/ (open it in a browser: deployed, pending, last runs)`);
      out(`status:   ${url}/status`);
      out(`metrics:  ${url}/metrics`);
      out('');
      out('Try these (each line works as pasted):');
      out(`curl -s ${url}/status`);
      out(
        `DOCSYNC_API_URL=${emulator.url} DOCSYNC_TOKEN=${DEMO_TOKEN} npx docsync plan --config ${quote(configArg)}`,
      );
      out('Make drift by hand; the next drift check (every minute) removes the team again:');
      out(
        `curl -s -X PUT --oauth2-bearer ${DEMO_TOKEN} -H 'content-type: application/json' -d '{"title":"Made by hand"}' ${emulator.url}/v1/orgs/org_demo/teams`,
      );
      out('');
    },
  );
  await emulator.close();
  return code;
}

/** A path as one shell word. */
function quote(path: string): string {
  return /^[\w./-]+$/.test(path) ? path : `'${path.replace(/'/g, "'\\''")}'`;
}
