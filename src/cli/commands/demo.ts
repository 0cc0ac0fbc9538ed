import { setting, wholeNumber } from '../settings.js';
import { lazy, type CommandWiring } from './wiring.js';

const demoCommand = lazy(() => import('../demo.js'), 'demoCommand');

export const demo: CommandWiring = {
  name: 'demo',
  examples: ['docsync demo --port 8080'],
  wire: (cmd, { setExit }) =>
    cmd
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
      ),
};
