import { createHash } from 'node:crypto';

function score(member: string, key: string): bigint {
  return createHash('sha256').update(member).update('\0').update(key).digest().readBigUInt64BE(0);
}

/**
 * Rendezvous (highest random weight) hashing: every replica computes the same owner from the same
 * member list, and when a member joins or leaves only the keys it wins or held move.
 */
export function rendezvousOwner(key: string, members: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestScore = -1n;
  for (const m of members) {
    const s = score(m, key);
    if (s > bestScore || (s === bestScore && best !== undefined && m < best)) {
      best = m;
      bestScore = s;
    }
  }
  return best;
}
