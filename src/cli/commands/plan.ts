import { controlOptions, withControls } from '../controls.js';
import type { Format } from '../plan.js';
import { common, formatOption, lazy, withCommon, type CommandWiring } from './wiring.js';

const planCommand = lazy(() => import('../plan.js'), 'planCommand');

export const plan: CommandWiring = {
  name: 'plan',
  examples: [
    'DOCSYNC_TOKEN=... docsync plan --config config',
    'docsync plan -o json --out plan.json --detailed-exitcode',
  ],
  wire: (cmd, { setExit }) =>
    withControls(withCommon(cmd))
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
      ),
};
