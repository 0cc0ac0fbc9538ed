/**
 * Random desired and live states for the property test, drawn from the kinds' examples
 * (test/helpers/kind-examples.ts): every kind the registry holds, none named here.
 */
export { randomConfig, randomDesired, randomLiveSeed } from './kind-examples.js';

/** A seeded generator (mulberry32): the same seed gives the same states. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
