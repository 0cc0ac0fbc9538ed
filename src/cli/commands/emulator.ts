import { Option } from 'commander';
import { wholeNumber } from '../settings.js';
import { lazy, type CommandWiring } from './wiring.js';

const emulatorCommand = lazy(() => import('../emulator.js'), 'emulatorCommand');

export const emulator: CommandWiring = {
  name: 'emulator',
  examples: ['docsync emulator --seed examples/emulator-seed.yaml --port 4010'],
  wire: (cmd, { setExit }) =>
    cmd
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
      .action(async (o: Parameters<typeof emulatorCommand>[0]) => setExit(await emulatorCommand(o))),
};
