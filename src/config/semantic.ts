import {
  anyListKinds,
  anyObjectKinds,
  anySpaceFacets,
  collectionKind,
  listIn,
  valueIn,
} from '../kinds/registry.js';
import type { EntryChecks, UniqueList } from '../kinds/shapes.js';
import { formatPath, type ConfigIssue } from './issues.js';
import type { ConfigFile } from './schema.js';
import { locate, type YamlFile } from './yaml-file.js';

/** A validated file and the organization it describes. */
export type ParsedConfig = { yaml: YamlFile; config: ConfigFile };

type Path = (string | number)[];
type Place = { readonly yaml: YamlFile; readonly path: Path };

/**
 * The place of an entry's field (`at`, then the kind's key, the entry's index, the field), its
 * path made only when read: every entry's place is kept for a "first at" message that almost
 * never comes (issue 33: one array per entry of a 100k-resource config).
 */
class FieldPlace implements Place {
  constructor(
    readonly yaml: YamlFile,
    private readonly at: Path,
    private readonly key: string,
    private readonly i: number,
    private readonly field: string,
  ) {}
  get path(): Path {
    return [...this.at, this.key, this.i, this.field];
  }
}

/** Collects located issues; `where` renders a place for "first defined at" messages. */
class Issues {
  readonly list: ConfigIssue[] = [];
  add(place: Place, code: ConfigIssue['code'], message: string, key = false): void {
    const pos = locate(place.yaml, place.path, key);
    this.list.push({
      severity: 'error',
      code,
      file: place.yaml.file,
      ...pos,
      path: formatPath(place.path),
      message,
    });
  }
  where(place: Place): string {
    const pos = locate(place.yaml, place.path);
    return `${place.yaml.file}:${pos.line}:${pos.column}`;
  }
}

/**
 * Remembers the first place of each identity in a scope and reports the second. A place is made
 * by `placeOf` from what the caller hands (`at`) only when reported: an entry's check hands a path
 * for each identity (a team's members: 12,000 for the request-heavy config), nearly none reported.
 */
function uniqueIn<At = Place>(
  issues: Issues,
  what: string,
  placeOf: (at: At) => Place = (at) => at as Place,
) {
  // Made at the first identity: most scopes of an entry check (a team's members) stay empty.
  let seen: Map<string, At> | undefined;
  return (identity: string, at: At, label = identity) => {
    const first = (seen ??= new Map()).get(identity);
    if (first !== undefined)
      issues.add(
        placeOf(at),
        'duplicate',
        `${what} "${label}" is described twice (first at ${issues.where(placeOf(first))})`,
      );
    else seen.set(identity, at);
  };
}

/** What the walk reads of a list kind, in objects of one shape (see `uniqueLists`). */
type UniqueScope = {
  issues: Issues;
  listKey: string;
  field: string;
  pinned: boolean;
  caseless: boolean;
  check: UniqueList['check'];
  key: ReturnType<typeof uniqueIn>;
  id: ReturnType<typeof uniqueIn>;
};

/**
 * One identity scope per kind: its key, and its pinned ids. What the walk reads of the kind is
 * copied into objects of one shape: the kinds' own objects differ in shape, and reading them for
 * every entry made the walk's code polymorphic and deoptimized it (issue 33).
 */
function uniqueLists(issues: Issues, kinds: readonly UniqueList[]): UniqueScope[] {
  return kinds.map((kind) => ({
    issues,
    listKey: kind.key,
    field: kind.unique.key,
    pinned: kind.unique.pinned === true,
    caseless: kind.unique.caseless === true,
    check: kind.check,
    key: uniqueIn(issues, kind.unique.what),
    id: uniqueIn(issues, `${kind.unique.what} id`),
  }));
}

/**
 * Each entry of each kind once: by its pinned id when there is one, its key otherwise; then the
 * kind's check of the entry. The kinds with a check and those without walk in loops of their own:
 * the call of a check (a different function for each kind) is in `checkedEntries` alone, so the
 * identities' loop, which every list runs, stays small and monomorphic (issue 33: TurboFan
 * compiled the checks inlined in the one loop, twice).
 */
function checkUniqueIn(lists: readonly UniqueScope[], yaml: YamlFile, holder: object, at: Path): void {
  for (let l = 0; l < lists.length; l += 1) {
    const list = lists[l]!;
    const entries = listIn(holder, list.listKey) as readonly object[] | undefined;
    if (!entries) continue;
    if (list.check) checkedEntries(list, list.check, yaml, entries, at);
    else for (let i = 0; i < entries.length; i += 1) keepUnique(list, yaml, entries[i]!, at, i);
  }
}

/** Entries of a kind with a check: each one's identity, then its check (the order of the issues). */
function checkedEntries(
  list: UniqueScope,
  check: NonNullable<UniqueList['check']>,
  yaml: YamlFile,
  entries: readonly object[],
  at: Path,
): void {
  for (let i = 0; i < entries.length; i += 1) {
    const entry = entries[i]!;
    keepUnique(list, yaml, entry, at, i);
    check(entry as never, new EntryCheck(list.issues, yaml, at, list.listKey, i, entry));
  }
}

/** One entry's identity, in its kind's scope. */
function keepUnique(list: UniqueScope, yaml: YamlFile, entry: object, at: Path, i: number): void {
  const fields = entry as Record<string, string | undefined>;
  // `id` read for every entry: read only for the kinds with pinned ids, it had no feedback when
  // the walk was optimized, and the first such kind deoptimized it (issue 33).
  const id = fields['id'];
  const pinned = list.pinned ? id : undefined;
  if (pinned) list.id(pinned, new FieldPlace(yaml, at, list.listKey, i, 'id'));
  else {
    const value = fields[list.field]!;
    list.key(
      list.caseless ? value.toLowerCase() : value,
      new FieldPlace(yaml, at, list.listKey, i, list.field),
      value,
    );
  }
}

/**
 * What an entry's check may call, each function made when the check asks for it: a check uses one
 * or two of them, and a config of 100k resources checks 20,000 entries (issue 33). The entry's
 * path (`at`, the kind's key, its index) is made when first needed: an issue, or nested lists.
 */
class EntryCheck implements EntryChecks {
  private path: Path | undefined;
  constructor(
    private readonly issues: Issues,
    private readonly yaml: YamlFile,
    private readonly at: Path,
    private readonly key: string,
    private readonly i: number,
    private readonly entry: object,
  ) {}
  /** The entry's path. */
  get here(): Path {
    return (this.path ??= [...this.at, this.key, this.i]);
  }
  get report(): EntryChecks['report'] {
    return (path, message, code = 'invalid-value', onKey = false) =>
      this.issues.add(this.below(path), code, message, onKey);
  }
  get unique(): EntryChecks['unique'] {
    return (what) => uniqueIn(this.issues, what, (path: Path) => this.below(path));
  }
  get where(): EntryChecks['where'] {
    return (path) => this.issues.where(this.below(path));
  }
  get nested(): EntryChecks['nested'] {
    return (kinds) => checkUniqueIn(uniqueLists(this.issues, kinds), this.yaml, this.entry, this.here);
  }
  private below(path: Path): Place {
    return new BelowPlace(this.yaml, this, path);
  }
}

/**
 * A place below an entry (its path, then `rest`), its path made only when read, as FieldPlace's: a
 * site's check hands one for each section path it registers (issue 33). `rest` is kept as given:
 * the checks pass a new array each time.
 */
class BelowPlace implements Place {
  constructor(
    readonly yaml: YamlFile,
    private readonly entry: EntryCheck,
    private readonly rest: Path,
  ) {}
  get path(): Path {
    return [...this.entry.here, ...this.rest];
  }
}

/** The parsed files of each organization, in file order. */
export function filesByOrganization(files: readonly ParsedConfig[]): Map<string, ParsedConfig[]> {
  const byOrg = new Map<string, ParsedConfig[]>();
  for (const f of files) {
    const group = byOrg.get(f.config.organization);
    if (group) group.push(f);
    else byOrg.set(f.config.organization, [f]);
  }
  return byOrg;
}

/** Checks across keys and files that a schema cannot express. Returns every problem at once. */
export function checkSemantics(files: ParsedConfig[]): ConfigIssue[] {
  const issues = new Issues();
  for (const group of filesByOrganization(files).values()) {
    const policy = uniqueIn(issues, 'policy');

    for (const { yaml, config } of group) {
      if (config.policy) policy('policy', { yaml, path: ['policy'] });
    }
    const objects = anyObjectKinds.map((kind) => ({ kind, once: uniqueIn(issues, kind.key) }));
    const tree = collectionKind.checks<YamlFile>({
      unique: (what) => {
        const once = uniqueIn(issues, what);
        return (identity, yaml, path) => once(identity, { yaml, path });
      },
      report: (yaml, path, message) => issues.add({ yaml, path }, 'unknown-reference', message),
    });
    const lists = uniqueLists(issues, anyListKinds);
    for (const { yaml, config } of group) {
      for (const { kind, once } of objects)
        if (valueIn(config, kind.key) !== undefined) once(kind.key, { yaml, path: [kind.key] });
      tree.declare(yaml, config);
      checkUniqueIn(lists, yaml, config, []);
    }
    for (const { yaml, config } of group) tree.parents(yaml, config);
    const configs = group.map((g) => g.config);
    for (const { yaml, config } of group) {
      config.spaces?.forEach((s, i) => {
        tree.space(yaml, s.id, i);
        for (const facet of anySpaceFacets) {
          const value = valueIn(s, facet.key);
          if (value === undefined) continue;
          facet.check(value, configs, (path, code, message, key) =>
            issues.add(
              { yaml, path: ['spaces', i, facet.key, ...path] },
              code as ConfigIssue['code'],
              message,
              key,
            ),
          );
        }
      });
    }
  }
  // In file order, as a compiler reports them (the checks run kind by kind).
  return issues.list.sort(
    (a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || a.line - b.line || a.column - b.column,
  );
}
