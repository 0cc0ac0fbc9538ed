import { formatIssue } from '../config/issues.js';
import { loadConfig } from '../config/load.js';
import { err, out } from './output.js';

/** `docsync validate`: load and check the YAML, no network. Exit 0 valid, 1 invalid. */
export async function validateCommand(opts: { config: string }): Promise<number> {
  const result = await loadConfig(opts.config);
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
