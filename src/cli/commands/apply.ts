import { controlOptions, withControls } from '../controls.js';
import { coordinationOptions, withCoordination } from '../coordination-flags.js';
import type { Format } from '../plan.js';
import { duration, setting, wholeNumber } from '../settings.js';
import { common, formatOption, lazy, withCommon, type CommandWiring } from './wiring.js';

const applyCommand = lazy(() => import('../apply.js'), 'applyCommand');

export const apply: CommandWiring = {
  name: 'apply',
  examples: ['docsync apply --config config', 'docsync apply --plan plan.json --yes'],
  wire: (cmd, { setExit }) =>
    withControls(withCoordination(withCommon(cmd)), true)
      .description('plan, then apply; asks for confirmation on a TTY unless --yes')
      .option('--yes', 'apply without asking')
      .option('--allow-deletes <n>', 'allow a plan with up to N deletions past the guards', wholeNumber(0), 0)
      .option('--plan <file>', 'apply a saved plan (plan --out), if live state has not changed since')
      .addOption(
        setting(
          '--lock-wait <duration>',
          'wait this long for another writer to finish (seconds, or 30s, 2m)',
          {
            parse: (v: string) => duration(v) / 1000,
            default: 0,
            shown: '0s',
          },
        ),
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
      ),
};
