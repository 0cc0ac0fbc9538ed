import { fileURLToPath } from 'node:url';
import { startEmulator } from '../emulator/server.js';
import { commonDefaults, flavorOptions } from './context.js';
import { daemonCommand } from './daemon.js';
import { readSeed } from './emulator.js';
import { out } from './output.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * `npm start`: the emulator in-process, seeded from examples/, and the daemon on config/ in
 * apply mode against it, so a newcomer can watch a sync happen.
 */
export async function demoCommand(opts: {
  port: number;
  emulatorPort: number;
  config?: string;
}): Promise<number> {
  const emulator = await startEmulator({
    port: opts.emulatorPort,
    seed: await readSeed(`${root}examples/emulator-seed.yaml`),
  });
  process.env['DOCSYNC_TOKEN'] = 'dev-token';
  const config = opts.config ?? `${root}config`;
  out(`emulator: ${emulator.url}/v1 (token dev-token; state at ${emulator.url}/_emulator/state)`);
  out(`config:   ${config} (edit it and watch the daemon apply the change)`);
  const code = await daemonCommand(
    {
      ...commonDefaults(),
      config,
      apiUrl: emulator.url,
      ...flavorOptions(undefined, emulator.url),
      branch: 'main',
      path: '.',
      interval: '10s',
      driftCron: '* * * * *',
      mode: 'apply',
      port: opts.port,
      host: '127.0.0.1',
      selfHeal: true,
      allowDeletes: 0,
      reminder: '1h',
      stopTimeout: '20s',
      configGiven: true,
    },
    (url) => {
      out(`status:   ${url}/status`);
      out(`metrics:  ${url}/metrics`);
      out(`Try:      curl -s ${url}/status`);
      out(
        `Drift:    curl -s -X PUT -H 'Authorization: Bearer dev-token' -H 'content-type: application/json' -d '{"title":"Made by hand"}' ${emulator.url}/v1/orgs/org_demo/teams   (removed again by the next drift check, every minute)`,
      );
    },
  );
  await emulator.close();
  return code;
}
