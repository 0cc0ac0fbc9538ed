import { capabilitiesOf } from '../api/capabilities.js';
import { resolveFlavor } from '../api/flavor.js';
import { formatIssue } from '../config/issues.js';
import { loadConfig } from '../config/load.js';
import type { ApiCapabilities } from '../model/capabilities.js';
import { err, out } from './output.js';

/**
 * The API `validate` checks for, when the environment names one (`DOCSYNC_API_FLAVOR`, or
 * `DOCSYNC_API_URL` and its flavor): a kind that API lacks is then an error at its key. Without
 * either, validate checks the config alone, for any API.
 */
function namedApi(): ApiCapabilities | undefined {
  const flavor = process.env['DOCSYNC_API_FLAVOR'];
  const url = process.env['DOCSYNC_API_URL'];
  if (flavor === undefined && url === undefined) return undefined;
  try {
    return capabilitiesOf(resolveFlavor(undefined, flavor, url ?? 'https://api.gitbook.com').flavor);
  } catch {
    return undefined; // A bad DOCSYNC_API_FLAVOR fails the network commands, not validate.
  }
}

/** `docsync validate`: load and check the YAML, no network. Exit 0 valid, 1 invalid. */
export async function validateCommand(opts: { config: string }): Promise<number> {
  const capabilities = namedApi();
  const result = await loadConfig(opts.config, undefined, capabilities ? { capabilities } : {});
  for (const issue of result.issues) err(formatIssue(issue));
  const errors = result.issues.filter((i) => i.severity === 'error').length;
  if (errors > 0 || !result.desired) {
    err(`${errors} error(s) in ${opts.config}`);
    return 1;
  }
  const orgs = result.desired.organizations.map((o) => o.id).join(', ');
  out(`${opts.config}: valid (${result.files.length} file(s); organizations: ${orgs})`);
  return 0;
}
