import {
  absentHere,
  anyListKinds,
  anySiteFacets,
  anySpaceFacets,
  collectionKind,
  listIn,
  valueIn,
} from '../kinds/registry.js';
import type { ApiCapabilities } from '../model/capabilities.js';
import { formatPath, type ConfigIssue } from './issues.js';
import type { ParsedConfig } from './semantic.js';
import { locate, type YamlFile } from './yaml-file.js';

/** A kind a config manages where the API lacks it: its module's `absent` message. */
type Absent = { absentIn?: readonly string[]; absent?: (caps: ApiCapabilities) => string };

/**
 * The kinds a config manages that the API it is validated for does not have (its module's `absentIn`):
 * one error each, at its key, with the kind's own words (`inviteLinks` in the seed flavor: "not in
 * this API"); a key of a space, collection or site entry (its grants, `access`) at each entry that
 * gives it. The plan refuses them too (src/reconcile/diff.ts); `validate` says so before any network.
 */
export function absentKindIssues(parsed: readonly ParsedConfig[], caps: ApiCapabilities): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const refuse = (yaml: YamlFile, path: (string | number)[], kind: Absent) => {
    const at = locate(yaml, path, true);
    issues.push({
      severity: 'error',
      code: 'unsupported-by-api',
      file: yaml.file,
      ...at,
      path: formatPath(path),
      message: kind.absent!(caps),
    });
  };
  const absent = (kind: Absent) => kind.absent !== undefined && absentHere(kind as never, caps);
  const holders: [string, readonly { key: string }[]][] = [
    ['spaces', anySpaceFacets.filter(absent)],
    ['collections', [collectionKind.grants].filter(absent)],
    ['sites', anySiteFacets.filter(absent)],
  ];
  for (const { yaml, config } of parsed) {
    for (const kind of anyListKinds)
      if (absent(kind) && listIn(config, kind.key) !== undefined) refuse(yaml, [kind.key], kind);
    for (const [holder, facets] of holders)
      listIn(config, holder)?.forEach((entry, i) => {
        for (const facet of facets)
          if (valueIn(entry as object, facet.key) !== undefined)
            refuse(yaml, [holder, i, facet.key], facet as Absent);
      });
  }
  // In file order, as a compiler reports them.
  return issues.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column);
}
