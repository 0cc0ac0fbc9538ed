import { expect, it } from 'vitest';
import { rng } from '../../test/helpers/random-state.js';
import { liveRef } from './draft.js';
import { LiveTitleRefs, type TitleRef } from './title-refs.js';

/**
 * `LiveTitleRefs` against the map it stands for (the live items' refs, then each set and each
 * adopted context's refs in turn): the same refs by title, and the same order when walked, whether
 * it is first asked before, between or after the sets.
 */
it('answers as the map made at once from the live items, then the sets and adopted refs (random)', () => {
  const random = rng(33);
  const titles = ['A', 'B', 'C', 'D', 'E', 'F'];
  const pick = () => titles[Math.floor(random() * titles.length)]!;
  for (let round = 0; round < 200; round += 1) {
    const live = Array.from({ length: Math.floor(random() * 5) }, (_, i) => ({
      id: `id_${i}`,
      title: pick(),
    }));
    const eager = new Map<string, TitleRef>(live.map((l) => [l.title, { ref: liveRef(l.id) }]));
    const lazy = new LiveTitleRefs(live);
    const steps = Math.floor(random() * 6);
    for (let s = 0; s < steps; s += 1) {
      const r = random();
      if (r < 0.4) {
        const ref: TitleRef = { ref: { change: `create:${s}` }, createKey: `create:${s}` };
        const title = pick();
        eager.set(title, ref);
        lazy.set(title, ref);
      } else if (r < 0.8) {
        const other = new Map<string, TitleRef>([[pick(), { ref: liveRef(`other_${s}`) }]]);
        other.set(pick(), { ref: liveRef(`other2_${s}`) });
        for (const [k, v] of other) eager.set(k, v);
        lazy.adopt(other);
      } else {
        // Asked in the middle: made then, the rest set into the map.
        const title = pick();
        expect(lazy.get(title)).toEqual(eager.get(title));
      }
    }
    for (const title of [...titles, 'absent']) expect(lazy.get(title)).toEqual(eager.get(title));
    expect([...lazy]).toEqual([...eager]);
  }
});
