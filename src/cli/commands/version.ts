import { Option } from 'commander';
import { VERSION } from '../../version.js';
import { commonDefaults } from '../defaults.js';
import { out } from '../output.js';
import type { CommandWiring } from './wiring.js';

// Imported when `docsync version` runs: it loads Node's child_process (for git, in a checkout),
// which no other command's start needs.
const buildCommit = async () => (await import('../../build-info.js')).buildCommit();

/** `docsync version`: the version, the build commit and the API flavor the next command would speak by default. */
async function versionText(format: 'text' | 'json'): Promise<string> {
  const d = commonDefaults();
  const info = {
    version: VERSION,
    commit: await buildCommit(),
    apiUrl: d.apiUrl,
    apiFlavor: d.apiFlavor,
    apiFlavorFrom: d.apiFlavorFrom ?? 'api-url',
    node: process.version,
  };
  if (format === 'json') return JSON.stringify(info, null, 2);
  const from =
    info.apiFlavorFrom === 'env'
      ? 'from DOCSYNC_API_FLAVOR'
      : `for ${info.apiUrl}: current for https://api.gitbook.com, seed for any other API URL`;
  return [
    `docsync ${info.version}`,
    `commit:     ${info.commit}`,
    `api flavor: ${info.apiFlavor} (${from}; --api-flavor or DOCSYNC_API_FLAVOR overrides)`,
    `node:       ${info.node}`,
  ].join('\n');
}

export const version: CommandWiring = {
  name: 'version',
  examples: ['docsync version', 'docsync version -o json'],
  wire: (cmd, { setExit }) =>
    cmd
      .description('print the version, the commit it was built from and the default API flavor')
      .addOption(
        new Option('-o, --format <format>', 'output format').choices(['text', 'json']).default('text'),
      )
      .action(async (o: { format: 'text' | 'json' }) => {
        out(await versionText(o.format));
        setExit(0);
      }),
};
