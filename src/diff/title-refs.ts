import type { Ref } from '../model/index.js';
import { liveRef } from './draft.js';

/** How to reference a site or team of the organization (a live one, or the draft that creates it). */
export type TitleRef = { ref: Ref; createKey?: string };

/** Refs by title, in order (a `LiveTitleRefs`, or a map of them). */
type Refs = Iterable<[string, TitleRef]>;

/**
 * The refs by title that kinds' diffs write (`set`) and read (`get`): those of the live items, then
 * what was set over them, in that order. Made at the first `get` or walk, as a map of the live
 * items' refs followed by the sets would have made them. A diff nobody asks of (no grant or SAML
 * default team names a team by title) builds none: after a plan's reads, 15,000 live teams' refs
 * and the 14,000 the teams' diff ahead wrote were each put in a map nobody read (issue 33).
 * `adopt` takes another context's refs as sets, without a copy.
 */
export class LiveTitleRefs implements Refs {
  private map: Map<string, TitleRef> | undefined;
  /** What was set before the map was made, in order: one ref, or another context's refs whole. */
  private readonly later: ([string, TitleRef] | Refs)[] = [];

  constructor(private readonly live: readonly { id: string; title: string }[]) {}

  get(title: string): TitleRef | undefined {
    return this.made().get(title);
  }

  set(title: string, ref: TitleRef): this {
    if (this.map) this.map.set(title, ref);
    else this.later.push([title, ref]);
    return this;
  }

  /** Every ref of `other` set here, in its order (taken as it is then: `other` is not written again). */
  adopt(other: Refs): void {
    if (this.map) for (const [k, v] of other) this.map.set(k, v);
    else this.later.push(other);
  }

  [Symbol.iterator](): Iterator<[string, TitleRef]> {
    return this.made()[Symbol.iterator]();
  }

  private made(): Map<string, TitleRef> {
    if (this.map) return this.map;
    const map = new Map<string, TitleRef>();
    for (const l of this.live) map.set(l.title, { ref: liveRef(l.id) });
    for (const x of this.later)
      if (Array.isArray(x)) map.set(x[0], x[1]);
      else for (const [k, v] of x) map.set(k, v);
    this.later.length = 0;
    this.map = map;
    return map;
  }
}
