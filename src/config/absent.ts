import { absentHere, anyListKinds, listIn } from '../kinds/registry.js';
import { siteListKinds } from '../kinds/site-parts.js';
import type { AnySiteListKind } from '../kinds/shapes.js';
import type { ApiCapabilities } from '../model/capabilities.js';
import type { ConfigIssue } from './issues.js';
import type { ParsedConfig } from './semantic.js';
import { locate } from './yaml-file.js';

/**
 * The list kinds a config manages that the API it is validated for does not have (its module's `absentIn`):
 * one error each, at its key, with the kind's own words (`inviteLinks` in the seed flavor: "not in
 * this API"). The plan refuses them too (src/reconcile/diff.ts); `validate` says so before any network.
 */
export function absentKindIssues(parsed: readonly ParsedConfig[], caps: ApiCapabilities): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  for (const { yaml, config } of parsed)
    for (const kind of anyListKinds) {
      if (!kind.absent || !absentHere(kind, caps) || listIn(config, kind.key) === undefined) continue;
      const at = locate(yaml, [kind.key], true);
      issues.push({
        severity: 'error',
        code: 'unsupported-by-api',
        file: yaml.file,
        ...at,
        path: kind.key,
        message: kind.absent(caps),
      });
    }
  // The lists inside a site (its redirects), at their key in each site that gives one.
  const inSites: readonly AnySiteListKind[] = siteListKinds;
  for (const { yaml, config } of parsed)
    (listIn(config, 'sites') ?? []).forEach((site, i) => {
      for (const kind of inSites) {
        if (!kind.absent || !absentHere(kind, caps) || listIn(site as object, kind.key) === undefined)
          continue;
        const at = locate(yaml, ['sites', i, kind.key], true);
        issues.push({
          severity: 'error',
          code: 'unsupported-by-api',
          file: yaml.file,
          ...at,
          path: `sites[${i}].${kind.key}`,
          message: kind.absent(caps),
        });
      }
    });
  return issues;
}
