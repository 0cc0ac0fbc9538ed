import type { DesiredOrganization } from '../reconcile/index.js';
import type { InheritedEntry } from '../plan/types.js';
import type { ParsedConfig } from './semantic.js';
import { locate, type YamlFile } from './yaml-file.js';

/** A place in a config file: where a plan error about a config value points. */
export type ConfigLocation = { file: string; line: number; column: number };

/** The entries `start` to `start + count - 1` of a merged list: one file's entries, in its order. */
type Span = { yaml: YamlFile; start: number; count: number };
type Origins = { lists: Map<string, Span[]>; objects: Map<string, YamlFile> };

/**
 * Where each entry of a normalized organization came from. `normalize` concatenates the lists of
 * an organization's files in file order and keeps the order inside each entry, so entry `i` of a
 * merged list is one entry of one file. Kept beside the desired state (not in it: saved plans stay
 * as they are); positions are computed only when a problem is reported (decision 0023).
 */
const origins = new WeakMap<DesiredOrganization, Origins>();

export function recordOrigins(orgs: readonly DesiredOrganization[], parsed: readonly ParsedConfig[]): void {
  for (const org of orgs) {
    const entry: Origins = { lists: new Map(), objects: new Map() };
    // Each file's `yaml` is already its locator (config/load-parse.ts parseFile), not its parsed tree.
    for (const { yaml, config } of parsed) {
      if (config.organization !== org.id) continue;
      for (const [key, value] of Object.entries(config)) {
        // One span per file and list, not an object per entry (issue 33: 20,000 kept for a plan).
        if (Array.isArray(value)) {
          let spans = entry.lists.get(key);
          if (!spans) entry.lists.set(key, (spans = []));
          const last = spans[spans.length - 1];
          spans.push({ yaml, start: last ? last.start + last.count : 0, count: value.length });
        } else if (value !== null && typeof value === 'object') entry.objects.set(key, yaml);
      }
    }
    origins.set(org, entry);
  }
}

/** The file, line and column of a value of the normalized organization, when it was loaded here. */
export function locateInConfig(
  org: DesiredOrganization,
  path: readonly (string | number)[],
  /** Point at the key of the last step (a name), not at its value. */
  onKey = false,
): ConfigLocation | undefined {
  const entry = origins.get(org);
  const [key, index, ...rest] = path;
  if (!entry || typeof key !== 'string') return undefined;
  if (typeof index === 'number') {
    const span = Number.isInteger(index)
      ? entry.lists.get(key)?.find((s) => index >= s.start && index < s.start + s.count)
      : undefined;
    if (!span) return undefined;
    return { file: span.yaml.file, ...locate(span.yaml, [key, index - span.start, ...rest], onKey) };
  }
  const yaml = entry.objects.get(key);
  return yaml ? { file: yaml.file, ...locate(yaml, path, onKey) } : undefined;
}

/** The entries each organization took from base files (`extends`), kept beside it like its origins. */
const inheritance = new WeakMap<DesiredOrganization, InheritedEntry[]>();

export function recordInherited(
  orgs: readonly DesiredOrganization[],
  entries: readonly InheritedEntry[],
): void {
  for (const org of orgs) {
    const mine = entries.filter((e) => e.organization === org.id);
    if (mine.length > 0) inheritance.set(org, mine);
  }
}

/** What the organization took from base files, when it was loaded here and extends any. */
export function inheritedOf(org: DesiredOrganization): InheritedEntry[] {
  return inheritance.get(org) ?? [];
}
