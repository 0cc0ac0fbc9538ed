import { configOption, lazy, type CommandWiring } from './wiring.js';

const validateCommand = lazy(() => import('../validate.js'), 'validateCommand');

export const validate: CommandWiring = {
  name: 'validate',
  examples: ['docsync validate --config config'],
  wire: (cmd, { setExit }) =>
    cmd
      .description('load and check the YAML; no network (exit 0 valid, 1 invalid)')
      .addOption(configOption())
      .action(async (o: { config: string }) => setExit(await validateCommand(o))),
};
