import { controlOptions, withControls } from '../controls.js';
import type { Format } from '../plan.js';
import { common, formatOption, lazy, withCommon, type CommandWiring } from './wiring.js';

const driftCommand = lazy(() => import('../plan.js'), 'driftCommand');

export const drift: CommandWiring = {
  name: 'drift',
  examples: ['docsync drift --config config -o markdown --out drift.md'],
  wire: (cmd, { setExit }) =>
    withControls(withCommon(cmd))
      .description('the plan as a drift report (exit 0 in sync, 2 drift, 1 error)')
      .addOption(formatOption())
      .option('--out <file>', 'also write the report to a file')
      .action(async (o: Record<string, unknown>) =>
        setExit(
          await driftCommand({
            ...common(o),
            ...controlOptions(o),
            format: o['format'] as Format,
            ...(o['out'] ? { out: String(o['out']) } : {}),
          }),
        ),
      ),
};
