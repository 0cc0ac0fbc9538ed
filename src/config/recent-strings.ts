/**
 * The fast YAML reader's table of short strings it read lately (fast-yaml-scalar.ts: keys and plain
 * values), found by their characters.
 */

/**
 * Short strings sliced lately from config texts, each kept with what it reads as: a config writes
 * the same keys and short values thousands of times (`space:`, `path: v0`, a section's title), and
 * one found here is the same string as before, where a new slice is one more string to allocate,
 * to carry through the scavenges while the config loads and, for a key, to look up (issue 33:
 * 85,000 copies of a few dozen values in a config of 100k resources). A slot is found by the
 * string's characters themselves, packed seven bits each (ASCII), four to a word: three words and
 * the length tell a string of up to 12 characters exactly, so a hit needs no compare of the text
 * (a `startsWith` per key and value was a fifth of the reader's time, issue 33). A miss (or a
 * collision) slices and keeps the new string in its place; a longer or non-ASCII one is not kept.
 */
export type Recent = {
  /** Per slot: the string, or undefined (its words are then not a string's). */
  readonly strings: (string | undefined)[];
  /** Per slot: what the string reads as (a plain value's value; a key kept is a usable key). */
  readonly values: unknown[];
  /** Per slot, four words: the characters 0–3, 4–7 and 8–11 packed, and the length. */
  readonly words: Int32Array;
};

/** A table of `size` slots (a power of two). */
export const recentSlices = (size: number): Recent => ({
  strings: new Array<string | undefined>(size).fill(undefined),
  values: new Array<unknown>(size).fill(undefined),
  words: new Int32Array(4 * size),
});

/** `recentSlot`'s answer for a string it does not keep (longer than 12 or not ASCII). */
export const NOT_KEPT = -1;

/**
 * The slot of `text` from `from` to `to` in `kept`: its index when the slot holds that string,
 * `-2 - index` when it does not (the slot's words are then the string's, its string to be set),
 * or `NOT_KEPT`. Only short slices are kept: V8 copies a slice of fewer than 13 characters, so a
 * kept one never holds a file's text.
 */
export function recentSlot(kept: Recent, text: string, from: number, to: number): number {
  const length = to - from;
  if (length > 12) return NOT_KEPT;
  let w0 = 0;
  let w1 = 0;
  let w2 = 0;
  let all = 0;
  for (let i = from; i < to; i += 1) {
    const c = text.charCodeAt(i);
    all |= c;
    const j = i - from;
    if (j < 4) w0 = (w0 << 7) | c;
    else if (j < 8) w1 = (w1 << 7) | c;
    else w2 = (w2 << 7) | c;
  }
  if (all > 0x7f) return NOT_KEPT;
  let hash = Math.imul(w0, 0x9e3779b1) ^ Math.imul(w1 + length, 0x85ebca6b) ^ Math.imul(w2, 0xc2b2ae35);
  hash ^= hash >>> 15;
  const slot = hash & (kept.strings.length - 1);
  const words = kept.words;
  const at = 4 * slot;
  if (words[at] === w0 && words[at + 1] === w1 && words[at + 2] === w2 && words[at + 3] === length)
    if (kept.strings[slot] !== undefined) return slot;
  words[at] = w0;
  words[at + 1] = w1;
  words[at + 2] = w2;
  words[at + 3] = length;
  kept.strings[slot] = undefined;
  return -2 - slot;
}
