import type { DesiredOrganization } from '../reconcile/index.js';
import type { InheritedEntry } from '../plan/types.js';
import type { ParsedConfig } from './semantic.js';
import { locate, type YamlFile } from './yaml-file.js';

/** A place in a config file: where a plan error about a config value points. */
export type ConfigLocation = { file: string; line: number; column: number };

type Origin = { yaml: YamlFile; index: number };
type Origins = { lists: Map<string, Origin[]>; objects: Map<string, YamlFile> };

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
    // Each file's `yaml` is already its locator (config/load.ts parseFile), not its parsed tree.
    for (const { yaml, config } of parsed) {
      if (config.organization !== org.id) continue;
      for (const [key, value] of Object.entries(config)) {
        if (Array.isArray(value)) {
          const list = entry.lists.get(key) ?? [];
          value.forEach((_, index) => list.push({ yaml, index }));
          entry.lists.set(key, list);
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
    const origin = entry.lists.get(key)?.[index];
    if (!origin) return undefined;
    return { file: origin.yaml.file, ...locate(origin.yaml, [key, origin.index, ...rest], onKey) };
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
