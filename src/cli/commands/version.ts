import { Option } from 'commander';
import { buildCommit } from '../../build-info.js';
import { VERSION } from '../../version.js';
import { commonDefaults } from '../defaults.js';
import { out } from '../output.js';
import type { CommandWiring } from './wiring.js';

/** `docsync version`: the version, the build commit and the API flavor the next command would speak by default. */
function versionText(format: 'text' | 'json'): string {
  const d = commonDefaults();
  const info = {
    version: VERSION,
    commit: buildCommit(),
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
      .action((o: { format: 'text' | 'json' }) => {
        out(versionText(o.format));
        setExit(0);
      }),
};
