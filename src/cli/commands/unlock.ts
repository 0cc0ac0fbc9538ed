import { defaultStateDir } from '../defaults.js';
import { lazy, stateDirOption, type CommandWiring } from './wiring.js';

const unlockCommand = lazy(() => import('../unlock.js'), 'unlockCommand');

export const unlock: CommandWiring = {
  name: 'unlock',
  examples: ['docsync unlock --org org_abc'],
  wire: (cmd, { setExit }) =>
    cmd
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
      ),
};
