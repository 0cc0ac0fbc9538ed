import type { DesiredSection, LiveSection, Ref } from '../model/index.js';
import { liveRef } from './draft.js';

/** A desired section, the live one it is paired with (if any), and how to reference it. */
export type SectionSlot = {
  d: DesiredSection;
  l: LiveSection | undefined;
  ref: Ref;
  addr: string;
  createKey?: string;
};

/**
 * Pair desired sections with live ones. Path is the identity, but a section keeps its spaces:
 * first pair a path with the live section at that path when they share a space (or it has none);
 * then pair what is left by a shared space (the section's path changed, or two paths were
 * exchanged); then by path alone. A renamed section cannot take a path that a section left alone
 * (prune off) keeps: it is paired with the section at its path instead, and the section it gave
 * up can then pair by a shared space, until nothing changes.
 */
export function pairSections(
  desired: DesiredSection[],
  liveSections: LiveSection[],
  prune: boolean,
  addressOf: (path: string) => string,
): { slots: SectionSlot[]; used: Set<LiveSection> } {
  const used = new Set<LiveSection>();
  const slots: SectionSlot[] = desired.map((ds) => ({
    d: ds,
    l: undefined,
    ref: { id: '' },
    addr: addressOf(ds.path),
  }));
  const byPath = new Map(liveSections.map((s) => [s.path, s]));
  const shares = (slot: SectionSlot, ls: LiveSection) => {
    const spaces = new Set(slot.d.spaces.map((x) => x.space));
    return ls.spaces.some((ss) => spaces.has(ss.space));
  };
  const pair = (slot: SectionSlot, ls: LiveSection) => {
    used.add(ls);
    slot.l = ls;
    slot.ref = liveRef(ls.id);
  };
  for (const slot of slots) {
    const match = byPath.get(slot.d.path);
    if (match && (shares(slot, match) || match.spaces.length === 0)) pair(slot, match);
  }
  // Pair what is left by a shared space; true when that paired a section.
  const pairByShare = () => {
    let paired = false;
    for (const slot of slots) {
      const match = slot.l ? undefined : liveSections.find((ls) => !used.has(ls) && shares(slot, ls));
      if (match) {
        pair(slot, match);
        paired = true;
      }
    }
    return paired;
  };
  pairByShare();
  for (let changed = true; changed;) {
    changed = false;
    for (const slot of slots) {
      const holder = byPath.get(slot.d.path);
      if (!holder || used.has(holder) || slot.l === holder) continue;
      if (slot.l && prune) continue;
      if (slot.l) used.delete(slot.l);
      pair(slot, holder);
      changed = true;
    }
    // A section given up for the one at its path (prune off) may share a space with a section
    // still unpaired: pair them now, as the next run would once the first holds its spaces.
    if (!changed) changed = pairByShare();
  }
  return { slots, used };
}
