import type { IgnoreRule, ProtectRule } from '../model/desired.js';
import { grantEntrySubject } from '../kinds/grants.js';
import { GRANTS_KEY } from '../model/grants.js';
import { formatPath, type ConfigIssue } from './issues.js';
import type { ConfigFile } from './schema.js';
import { locate, mayHoldAny, type YamlFile } from './yaml-file.js';

/**
 * Entry-level controls: any entry of a list (a site, a section, a team…) may say `ignore: [fields]`
 * and `protect: true`. They are taken out of the entry before the schema sees it and become
 * address rules, merged with `policy.ignore` and `policy.protect` (one mechanism for both).
 * An entry's address is its list's name in kebab case and its identity (`sites/Docs/sections/guides`).
 */
export type EntryControls = { ignore: IgnoreRule[]; protect: ProtectRule[] };

const controls = new WeakMap<ConfigFile, EntryControls>();

/**
 * How an entry is named in its address: by the singular of its list when it has such a key (a site
 * space, `spaces[].space`); a section by its path; an existing space by its id; else by the first
 * of `IDENTITY` it has (a custom field by `name`, a site by `title`).
 */
const IDENTITY_BY_LIST: Record<string, string> = { sections: 'path', spaces: 'id' };
const IDENTITY = ['name', 'slug', 'label', 'title', 'user', 'email', 'source', 'role', 'id'];

const kebab = (key: string) => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

function identityOf(list: string, entry: Record<string, unknown>): string | undefined {
  // A grant is named by its subject, as its changes' addresses are (`access/team:Platform`).
  if (list === GRANTS_KEY) return grantEntrySubject(entry);
  const singular = list.endsWith('s') ? list.slice(0, -1) : list;
  const key =
    typeof entry[singular] === 'string'
      ? singular
      : (IDENTITY_BY_LIST[list] ?? IDENTITY.find((k) => typeof entry[k] === 'string'));
  const value = key === undefined ? undefined : entry[key];
  return typeof value === 'string' ? value : undefined;
}

type Path = (string | number)[];
const CONTROL_KEYS = ['ignore', 'protect'];
const isEntry = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * An entry without its `ignore` and `protect` keys; the rules they make are added to `out`, and a
 * malformed one is reported to `issue` instead.
 */
function takeControls(
  entry: Record<string, unknown>,
  path: Path,
  address: string,
  out: EntryControls,
  issue: (path: Path, message: string) => void,
): Record<string, unknown> {
  const { ignore, protect, ...rest } = entry;
  // Named as every config path is (`sites[0].sections[1]`), by the one formatter.
  const rule = formatPath(path);
  if (ignore !== undefined) {
    if (
      !Array.isArray(ignore) ||
      ignore.length === 0 ||
      !ignore.every((f) => typeof f === 'string' && f !== '')
    )
      issue([...path, 'ignore'], 'expected a list of field names, such as [title, icon]');
    else out.ignore.push({ fields: ignore as string[], address, rule: `${rule}.ignore` });
  }
  if (protect !== undefined) {
    if (typeof protect !== 'boolean') issue([...path, 'protect'], 'expected true or false');
    else if (protect) out.protect.push({ address, rule: `${rule}.protect` });
  }
  return rest;
}

/**
 * The YAML value without entries' `ignore` and `protect` keys (a copy where they were), the rules
 * they make, and located issues for malformed ones. Only lists of entries are walked (not
 * `policy`, nor free-form objects such as a site's customization).
 */
export function extractEntryControls(
  yaml: YamlFile,
  /** The file's value (its variables expanded); by default the parsed YAML. */
  root: unknown = yaml.value,
): {
  value: unknown;
  controls: EntryControls;
  issues: ConfigIssue[];
} {
  const out: EntryControls = { ignore: [], protect: [] };
  const issues: ConfigIssue[] = [];
  // Keys are never expanded from variables: a file whose text holds neither word has no controls.
  if (!mayHoldAny(yaml, CONTROL_KEYS)) return { value: root, controls: out, issues };
  const issue = (path: Path, message: string) =>
    issues.push({
      severity: 'error',
      code: 'invalid-value',
      file: yaml.file,
      ...locate(yaml, path),
      path: formatPath(path),
      message,
    });
  // The entry's path and address are built only when needed (a rule, an issue, or lists below
  // it): most entries (a site space) have neither (decision 39).
  const walkEntry = (
    entry: Record<string, unknown>,
    pathOf: () => Path,
    addressOf: () => string,
  ): Record<string, unknown> => {
    let copy: Record<string, unknown> | undefined;
    if ('ignore' in entry || 'protect' in entry) {
      const path = pathOf();
      const address = addressOf();
      copy = takeControls(entry, path, address, out, issue);
    }
    const source = copy ?? entry;
    // `for…in`, not `Object.keys`: no array of keys per entry (parsed YAML has no inherited keys).
    for (const key in source) {
      const value = source[key];
      if (!Array.isArray(value)) continue;
      const next = walkList(value, [...pathOf(), key], key, addressOf());
      if (next !== value) (copy ??= { ...entry })[key] = next;
    }
    return copy ?? entry;
  };
  const walkList = (list: unknown[], path: Path, key: string, parent: string): unknown[] => {
    let copy: unknown[] | undefined;
    const prefix = `${parent === '' ? '' : `${parent}/`}${kebab(key)}/`;
    for (let i = 0; i < list.length; i += 1) {
      const entry = list[i];
      if (!isEntry(entry)) continue;
      let address: string | undefined;
      const next = walkEntry(
        entry,
        () => [...path, i],
        () => (address ??= `${prefix}${identityOf(key, entry) ?? `[${i}]`}`),
      );
      if (next !== entry) (copy ??= [...list])[i] = next;
    }
    return copy ?? list;
  };
  if (!isEntry(root)) return { value: root, controls: out, issues };
  let value: Record<string, unknown> | undefined;
  for (const [key, list] of Object.entries(root)) {
    if (key === 'policy' || !Array.isArray(list)) continue;
    const next = walkList(list, [key], key, '');
    if (next !== list) (value ??= { ...root })[key] = next;
  }
  return { value: value ?? root, controls: out, issues };
}

/** Keep a file's entry controls beside its parsed config (not in it: the schema's type stays the schema's). */
export function rememberEntryControls(config: ConfigFile, entry: EntryControls): void {
  if (entry.ignore.length > 0 || entry.protect.length > 0) controls.set(config, entry);
}

export function entryControlsOf(config: ConfigFile): EntryControls | undefined {
  return controls.get(config);
}
