import type { LiveReference } from '../kinds/types.js';
import { emptyList } from '../model/holey.js';
import { caselessOf } from './live-names.js';

/** A live entry's names of one target, as a config entry's references ask about them in turn. */
type Names = {
  target: string;
  names: readonly string[];
  caseless: boolean;
  /** Where the next asked name is looked for first: just past the last one found. */
  next: number;
  /** Names left to compare before `index` is made: a bound on the scans, linear in the names. */
  budget: number;
  /** The names as compared, once the scans are spent (references in another order than the names). */
  index: Set<string> | undefined;
};

/** A live entry that names nothing. */
const NO_REFERENCES: readonly LiveReference[] = emptyList();

/** No names: an array of the names' elements kind (`emptyList`, issue 33). */
const NO_NAMES: readonly string[] = emptyList();

/**
 * Whether a live entry names what its config twin's references name (a site's site spaces, a
 * team's members), without a set: the twin's references come mostly in the order of the live
 * entry's names, so each is looked for just past the last one found, a string compared, not
 * hashed. Looked for all round from there (a section moved); once an entry's scans have compared
 * four times its names, a set of them answers the rest (references in another order, or naming
 * what the entry does not). One object, reused for every entry (`reset`): no closure or array
 * per entry. Names compare as the proof's sets compare them (lower case where caseless).
 */
export class TwinNames {
  private item: unknown;
  private liveReferences: ((item: never) => LiveReference[]) | undefined;
  private refs: readonly LiveReference[] | undefined;
  private readonly byTarget: Names[] = [];
  private targets = 0;
  private last: Names | undefined;

  /**
   * The live entry the next questions are about, and what gives its names (its kind's
   * `liveReferences`): asked only once a question comes (a config entry without references, a
   * team without members, asks none).
   */
  reset(item: unknown, liveReferences: ((item: never) => LiveReference[]) | undefined): void {
    this.item = item;
    this.liveReferences = liveReferences;
    this.refs = undefined;
    this.targets = 0;
    this.last = undefined;
  }

  /** Whether the live entry names `id` as a `target`. */
  has(target: string, id: string): boolean {
    let names = this.last;
    if (names === undefined || names.target !== target) names = this.last = this.of(target);
    if (names.index !== undefined) return names.index.has(names.caseless ? id.toLowerCase() : id);
    return this.scan(names, names.caseless ? id.toLowerCase() : id);
  }

  /** Looked for from just past the last name found, all round; the set made once scans are spent. */
  private scan(names: Names, want: string): boolean {
    const list = names.names;
    const n = list.length;
    for (let k = 0, j = names.next; k < n; k += 1, j += 1) {
      if (j === n) j = 0;
      const name = list[j]!;
      if (name === want || (names.caseless && name.toLowerCase() === want)) {
        names.next = j + 1;
        names.budget -= k;
        if (names.budget < 0) indexed(names);
        return true;
      }
    }
    names.budget -= n;
    if (names.budget < 0) indexed(names);
    return false;
  }

  /** The entry's names of `target` (those of its references of that target, joined when several). */
  private of(target: string): Names {
    for (let i = 0; i < this.targets; i += 1)
      if (this.byTarget[i]!.target === target) return this.byTarget[i]!;
    // `.call`: one call site for every kind's function without a deopt (wrong call target, issue 33).
    this.refs ??= this.liveReferences?.call(undefined, this.item as never) ?? NO_REFERENCES;
    let list = NO_NAMES;
    for (const r of this.refs)
      if (r.target === target) list = list === NO_NAMES ? r.names : list.concat(r.names);
    let names = this.byTarget[this.targets];
    if (names === undefined) {
      names = { target, names: list, caseless: false, next: 0, budget: 0, index: undefined };
      this.byTarget.push(names);
    }
    this.targets += 1;
    names.target = target;
    names.names = list;
    names.caseless = caselessOf(target);
    names.next = 0;
    names.budget = 4 * list.length + 16;
    names.index = undefined;
    return names;
  }
}

/** The names in a set, as compared: what answers once the scans are spent. */
function indexed(names: Names): void {
  names.index = new Set(names.caseless ? names.names.map((x) => x.toLowerCase()) : names.names);
}
