import { dirname, join, normalize as normalizePath, resolve } from 'node:path';
import type { Document } from 'yaml';
import { anyListKinds, anyObjectKinds } from '../kinds/registry.js';
import { findRepositoryRoot, IndirectValueError, readIndirectSync } from '../secrets/indirect.js';
import type { InheritedEntry } from '../plan/types.js';
import { entryControlsOf, rememberEntryControls } from './entry-controls.js';
import { formatPath, type ConfigIssue } from './issues.js';
import type { ConfigFile } from './schema.js';
import type { ParsedConfig } from './semantic.js';
import { locate, MAX_FILE_BYTES, type YamlFile } from './yaml-file.js';

/**
 * `extends:` (decision 0028): an organization's file may name shared base files; their entries
 * join the organization as if written in it, and an entry of a later layer replaces, whole, the
 * entry of an earlier one with the same identity (the file itself is the last layer). The
 * organization's objects (`policy`, `settings`) merge key by key, the later layer winning.
 */

/** A parsed file and where it is (its real path, to read its own bases relative to it). */
export type Layered = ParsedConfig & { path?: string | undefined };

/** Where an inherited entry came from, for the plan. */
export type Inherited = InheritedEntry;

/** Reads and parses a base file (no `organization`); issues when it cannot. */
export type ReadBase = (spec: {
  from: Layered;
  written: string;
  at: (string | number)[];
}) => { layer: Layered; real: string } | ConfigIssue[];

const MAX_DEPTH = 8;

/** The keys whose entries have an identity, and that identity. */
function identities(): { key: string; identity: (entry: Record<string, unknown>) => string | undefined }[] {
  const out = anyListKinds.map((kind) => ({
    key: kind.key,
    identity: (e: Record<string, unknown>) => {
      const pinned = kind.unique.pinned && typeof e['id'] === 'string' ? `id:${e['id']}` : undefined;
      const value = e[kind.unique.key];
      if (pinned) return pinned;
      if (typeof value !== 'string') return undefined;
      return kind.unique.caseless ? value.toLowerCase() : value;
    },
  }));
  const byIdOrTitle = (e: Record<string, unknown>) =>
    typeof e['id'] === 'string' ? `id:${e['id']}` : typeof e['title'] === 'string' ? e['title'] : undefined;
  out.push({ key: 'collections', identity: byIdOrTitle });
  out.push({ key: 'spaces', identity: (e) => (typeof e['id'] === 'string' ? `id:${e['id']}` : undefined) });
  return out;
}

const OBJECT_KEYS = ['policy', ...anyObjectKinds.map((k) => k.key)];

/**
 * Expand every file's `extends` into layers: each base (its own bases first, each base once per
 * organization) becomes a parsed file of the organization, without the entries a later layer
 * replaces. Returns the files to check and normalize, issues, and what was inherited.
 */
export function applyExtends(
  files: Layered[],
  readBase: ReadBase,
): { files: Layered[]; issues: ConfigIssue[]; inherited: Inherited[] } {
  const issues: ConfigIssue[] = [];
  const out: Layered[] = [];
  const inherited: Inherited[] = [];
  const seenPerOrg = new Map<string, Set<string>>();
  for (const file of files) {
    if (!file.config.extends || file.config.extends.length === 0) {
      out.push(file);
      continue;
    }
    const org = file.config.organization;
    const seen = seenPerOrg.get(org) ?? new Set<string>();
    seenPerOrg.set(org, seen);
    const bases: Layered[] = [];
    collect(file, [], seen, bases, issues, readBase);
    const layers = merge([...bases, file], org, inherited);
    out.push(...layers);
  }
  return { files: out, issues, inherited };
}

function collect(
  file: Layered,
  chain: string[],
  seen: Set<string>,
  into: Layered[],
  issues: ConfigIssue[],
  readBase: ReadBase,
): void {
  (file.config.extends ?? []).forEach((written, i) => {
    const at = ['extends', i];
    const where = (message: string) => issue(file.yaml, at, message);
    if (chain.length >= MAX_DEPTH) {
      issues.push(where(`bases are nested more than ${MAX_DEPTH} deep`));
      return;
    }
    const read = readBase({ from: file, written, at });
    if (Array.isArray(read)) {
      issues.push(...read);
      return;
    }
    if (chain.includes(read.real) || read.real === file.path) {
      issues.push(where(`"${written}" extends itself (through ${[...chain, read.real].length} files)`));
      return;
    }
    if (seen.has(read.real)) return;
    seen.add(read.real);
    collect(read.layer, [...chain, read.real], seen, into, issues, readBase);
    into.push(read.layer);
  });
}

/** The layers of one file, later ones replacing earlier entries by identity and merging objects. */
function merge(layers: Layered[], org: string, inherited: Inherited[]): Layered[] {
  const taken = new Map<string, Map<string, string>>();
  const result: Layered[] = [];
  const keys = identities();
  for (let l = layers.length - 1; l >= 0; l -= 1) {
    const layer = layers[l]!;
    const isBase = l < layers.length - 1;
    const config: Record<string, unknown> = { ...layer.config, organization: org };
    const removed: { key: string; index: number }[] = [];
    for (const { key, identity } of keys) {
      const list = config[key];
      if (!Array.isArray(list)) continue;
      const seen = taken.get(key) ?? new Map<string, string>();
      taken.set(key, seen);
      const mine = new Map<string, string>();
      const kept = list.filter((entry: Record<string, unknown>, index) => {
        const id = identity(entry);
        if (id === undefined) return true;
        const later = seen.get(id);
        if (isBase)
          inherited.push({
            organization: org,
            key,
            identity: displayed(entry, id),
            base: layer.yaml.file,
            ...(later ? { overriddenBy: later } : {}),
          });
        if (later) {
          removed.push({ key, index });
          return false;
        }
        // Two entries of one layer are left for the duplicate check: only later layers replace.
        mine.set(id, layer.yaml.file);
        return true;
      });
      for (const [id, from] of mine) seen.set(id, from);
      config[key] = kept;
    }
    // Entry controls (`ignore`, `protect` on an entry) are kept beside the config: they follow its copy.
    const controls = entryControlsOf(layer.config);
    if (controls) rememberEntryControls(config as ConfigFile, controls);
    result.unshift({ ...layer, config: config as ConfigFile, yaml: without(layer.yaml, removed) });
  }
  mergeObjects(result);
  delete (result[result.length - 1]!.config as { extends?: unknown }).extends;
  return result;
}

/** How an inherited entry is named in the plan: its title, name or e-mail rather than an id key. */
function displayed(entry: Record<string, unknown>, id: string): string {
  for (const key of ['title', 'name', 'email', 'slug', 'label', 'role'])
    if (typeof entry[key] === 'string') return entry[key];
  return id;
}

/** `policy` and the object kinds: one object per organization, later layers' keys winning. */
function mergeObjects(layers: Layered[]): void {
  for (const key of OBJECT_KEYS) {
    const holders = layers.filter((l) => (l.config as Record<string, unknown>)[key] !== undefined);
    if (holders.length < 2) continue;
    const merged = Object.assign({}, ...holders.map((l) => (l.config as Record<string, unknown>)[key]));
    holders.forEach((holder, i) => {
      const config = holder.config as Record<string, unknown>;
      if (i === holders.length - 1) config[key] = merged;
      else delete config[key];
    });
  }
}

/** The file with some list entries removed, its positions kept (so issues still point at the right line). */
function without(yaml: YamlFile, removed: { key: string; index: number }[]): YamlFile {
  if (removed.length === 0) return yaml;
  const doc = yaml.doc.clone() as Document.Parsed;
  for (const { key, index } of [...removed].sort((a, b) => b.index - a.index)) {
    const seq = doc.get(key, true) as { items?: unknown[] } | undefined;
    seq?.items?.splice(index, 1);
  }
  return { file: yaml.file, doc, lines: yaml.lines, value: yaml.value };
}

function issue(yaml: YamlFile, path: (string | number)[], message: string): ConfigIssue {
  return {
    severity: 'error',
    code: 'invalid-extends',
    file: yaml.file,
    ...locate(yaml, path),
    path: formatPath(path),
    message,
  };
}

/**
 * A reader of base files from disk: confined like an indirect value (inside the repository, no
 * symlink, no VCS metadata, a regular file, bounded), parsed by `parse` (variables expanded, the
 * base schema). Each base is read once per load.
 */
export function diskBases(
  parse: (shown: string, bytes: Buffer) => { layer: ParsedConfig } | { issues: ConfigIssue[] },
  opts: { root?: string; env: NodeJS.ProcessEnv },
): ReadBase {
  const cache = new Map<string, { layer: Layered; real: string } | ConfigIssue[]>();
  return ({ from, written, at }) => {
    const baseDir = dirname(resolve(from.path ?? from.yaml.file));
    const root = opts.root ?? findRepositoryRoot(baseDir);
    const shown = normalizePath(join(dirname(from.yaml.file), written));
    let read: { value: string; path?: string };
    try {
      read = readIndirectSync({ file: written }, { baseDir, root, env: opts.env, maxChars: MAX_FILE_BYTES });
    } catch (error) {
      if (!(error instanceof IndirectValueError)) throw error;
      return [issue(from.yaml, at, `base "${written}" cannot be read: ${error.message}`)];
    }
    const real = read.path ?? resolve(baseDir, written);
    const cached = cache.get(real);
    if (cached) return cached;
    const parsed = parse(shown, Buffer.from(read.value, 'utf8'));
    const result = 'issues' in parsed ? parsed.issues : { layer: { ...parsed.layer, path: real }, real };
    cache.set(real, result);
    return result;
  };
}
