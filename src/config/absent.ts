import { absentHere, anyListKinds, anySiteFacets, listIn, valueIn } from '../kinds/registry.js';
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
  for (const { yaml, config } of parsed)
    (listIn(config, 'sites') ?? []).forEach((site, i) => {
      for (const facet of anySiteFacets) {
        if (!facet.absent || !absentHere(facet, caps) || valueIn(site as object, facet.key) === undefined)
          continue;
        issues.push({
          severity: 'error',
          code: 'unsupported-by-api',
          file: yaml.file,
          ...locate(yaml, ['sites', i, facet.key], true),
          path: `sites[${i}].${facet.key}`,
          message: facet.absent(caps),
        });
      }
    });
  return issues;
}
