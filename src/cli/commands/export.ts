import { common, lazy, withCommon, type CommandWiring } from './wiring.js';

const exportCommand = lazy(() => import('../export.js'), 'exportCommand');

/** `docsync export` (`export` is a keyword: the wiring is `exportWiring`). */
export const exportWiring: CommandWiring = {
  name: 'export',
  examples: ['docsync export --org org_abc --out ./config'],
  wire: (cmd, { setExit }) =>
    withCommon(cmd)
      .description('write the live state of an organization as docsync YAML (reads only)')
      .requiredOption('--org <id>', 'organization id')
      .option('--out <dir>', 'output folder', './config')
      .option('--force', 'write into a folder that is not empty')
      .action(async (o: Record<string, unknown>) =>
        setExit(
          await exportCommand({
            ...common(o),
            org: String(o['org']),
            out: String(o['out']),
            force: Boolean(o['force']),
          }),
        ),
      ),
};
