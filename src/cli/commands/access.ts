import { Option } from 'commander';
import { common, lazy, withCommon, type CommandWiring } from './wiring.js';

const accessCommand = lazy(() => import('../access.js'), 'accessCommand');

/** `docsync access`: the effective-access matrix for audits, from live state (decision 35). */
export const access: CommandWiring = {
  name: 'access',
  examples: [
    'docsync access --org org_abc',
    'docsync access --org org_abc --format csv > access.csv',
    'docsync access --config ./config -o json',
  ],
  wire: (cmd, { setExit }) =>
    withCommon(cmd)
      .description(
        'print who can read, edit or administer each collection, space and site, from live state (reads only; exit 0, 1)',
      )
      .option('--org <id>', 'organization id (default: every organization of the config)')
      .addOption(
        new Option('-o, --format <format>', 'output format').choices(['text', 'csv', 'json']).default('text'),
      )
      .option(
        '--no-aggregate',
        "do not check the result against the API's permissions/aggregate (today's API)",
      )
      .action(async (o: Record<string, unknown>) =>
        setExit(
          await accessCommand({
            ...common(o),
            ...(o['org'] !== undefined ? { org: String(o['org']) } : {}),
            format: String(o['format']) as 'text' | 'csv' | 'json',
            aggregate: o['aggregate'] !== false,
          }),
        ),
      ),
};
