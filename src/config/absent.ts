import {
  absentHere,
  anyListKinds,
  anySiteFacets,
  anySiteListKinds,
  anySpaceFacets,
  collectionKind,
  listIn,
  valueIn,
} from '../kinds/registry.js';
import type { ApiCapabilities } from '../model/capabilities.js';
import { formatPath, type ConfigIssue } from './issues.js';
import type { ParsedConfig } from './semantic.js';
import { locate, type YamlFile } from './yaml-file.js';

/** One `unsupported-by-api` error at `path` of `yaml` (at its key). */
function unsupported(yaml: YamlFile, path: (string | number)[], message: string): ConfigIssue {
  return {
    severity: 'error',
    code: 'unsupported-by-api',
    file: yaml.file,
    ...locate(yaml, path, true),
    path: formatPath(path),
    message,
  };
}

/** What a config manages that the API it is validated for lacks: its kinds, then its entries' keys. */
export function capabilityIssues(parsed: readonly ParsedConfig[], caps: ApiCapabilities): ConfigIssue[] {
  return [...absentKindIssues(parsed, caps), ...absentKeyIssues(parsed, caps)];
}

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
  const refuse = (yaml: YamlFile, path: (string | number)[], kind: Absent) =>
    issues.push(unsupported(yaml, path, kind.absent!(caps)));
  const absent = (kind: Absent) => kind.absent !== undefined && absentHere(kind as never, caps);
  const holders: [string, readonly { key: string }[]][] = [
    ['spaces', anySpaceFacets.filter(absent)],
    ['collections', [collectionKind.grants].filter(absent)],
    ['sites', [...anySiteFacets, ...anySiteListKinds].filter(absent)],
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

/** The places in `value` a path such as `sections[].draft` names (`[]`: each item of a list). */
function placesOf(value: unknown, steps: readonly string[], at: (string | number)[]): (string | number)[][] {
  if (steps.length === 0) return [at];
  const [step, ...rest] = steps as [string, ...string[]];
  const each = step.endsWith('[]');
  const key = each ? step.slice(0, -2) : step;
  if (typeof value !== 'object' || value === null || !(key in value)) return [];
  const next = (value as Record<string, unknown>)[key];
  if (!each) return next === undefined ? [] : placesOf(next, rest, [...at, key]);
  if (!Array.isArray(next)) return [];
  return next.flatMap((item, i) => placesOf(item, rest, [...at, key, i]));
}

/**
 * Keys of entries that the API validated for lacks (each list kind's `absentKeys`: a site's drafts
 * in api.md), one error each, at the key, in file order.
 */
export function absentKeyIssues(parsed: readonly ParsedConfig[], caps: ApiCapabilities): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  for (const { yaml, config } of parsed) {
    const mine: ConfigIssue[] = [];
    for (const kind of anyListKinds) {
      const absent = kind.absentKeys;
      const entries = listIn(config, kind.key);
      if (!absent || !absent.in.includes(caps.flavor) || !entries) continue;
      const found = entries.flatMap((entry, i) =>
        absent.paths.flatMap((p) => placesOf(entry, p.split('.'), [kind.key, i])),
      );
      for (const path of found)
        mine.push(
          unsupported(
            yaml,
            path,
            `${String(path.at(-1))} is not in this API (api.md has none); remove it or use ${caps.otherwise}`,
          ),
        );
    }
    issues.push(...mine.sort((a, b) => a.line - b.line || a.column - b.column));
  }
  return issues;
}
