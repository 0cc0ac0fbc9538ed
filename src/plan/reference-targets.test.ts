import { expect, it } from 'vitest';
import { anyListKinds, listIn } from '../kinds/registry.js';
import { randomDesired, rng } from '../../test/helpers/random-state.js';
import { referencesOf, referenceTargets } from './references.js';

const targetsOf = (refs: readonly { target: string; read?: boolean | undefined }[]) =>
  [...new Set(refs.map((r) => `${r.target}${r.read ? ' (read)' : ''}`))].sort();

it("a kind's referenceTargets name exactly the targets and read flags of its references (random configs)", () => {
  const random = rng(33);
  let compared = 0;
  for (let n = 0; n < 8; n += 1) {
    const org = randomDesired(random, n % 2 === 0 ? 'seed' : 'current');
    for (const kind of anyListKinds) {
      if (!kind.referenceTargets || !kind.references) continue;
      for (const entry of listIn(org, kind.key) ?? []) {
        expect(targetsOf(kind.referenceTargets(entry, org as never))).toEqual(
          targetsOf(kind.references(entry, org as never)),
        );
        compared += 1;
      }
    }
  }
  expect(compared).toBeGreaterThan(4);
  // And the organization's targets, as the live read's scope takes them.
  const org = randomDesired(rng(7));
  expect(referenceTargets(org).named.size).toBeGreaterThan(0);
});

it('references a kind leaves out for `keep` are exactly those the filter would drop, each located the same (random configs)', () => {
  const random = rng(42);
  let kept = 0;
  for (let n = 0; n < 8; n += 1) {
    const org = randomDesired(random, n % 2 === 0 ? 'seed' : 'current');
    // Keeps about half the ids, by a hash of the name.
    const keep = (target: string, id: string) =>
      [...`${target}:${id}`].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 9973, 7) % 2 === 0;
    const all = referencesOf(org);
    const filtered = referencesOf(org, keep);
    expect(filtered).toEqual(all.filter((r) => keep(r.target, r.id)));
    kept += filtered.length;
  }
  expect(kept).toBeGreaterThan(4);
});
