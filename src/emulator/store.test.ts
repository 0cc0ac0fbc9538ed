import { describe, expect, it } from 'vitest';
import type { EmuOrganization, EmuSpace } from './state.js';
import { spaceIn } from './store.js';

const space = (id: string, title = id) => ({ id, title }) as EmuSpace;
const orgWith = (spaces: EmuSpace[]) => ({ spaces }) as EmuOrganization;

describe('spaceIn (the index behind site-space answers)', () => {
  it('finds what find would, the first of duplicate ids, nothing for unknown ids', () => {
    const org = orgWith([space('a'), space('b', 'first b'), space('b', 'second b')]);
    expect(spaceIn(org, 'a')?.id).toBe('a');
    expect(spaceIn(org, 'b')?.title).toBe('first b');
    expect(spaceIn(org, 'zzz')).toBeUndefined();
  });

  it('follows the spaces array when it is changed in place', () => {
    const org = orgWith([space('a'), space('b'), space('c')]);
    expect(spaceIn(org, 'c')?.id).toBe('c');
    org.spaces.splice(0, 1); // positions shift, length changes
    expect(spaceIn(org, 'c')?.id).toBe('c');
    expect(spaceIn(org, 'a')).toBeUndefined();
    org.spaces[0] = space('d'); // same length, replaced item
    expect(spaceIn(org, 'b')).toBeUndefined();
    expect(spaceIn(org, 'd')?.id).toBe('d');
    org.spaces[1]!.id = 'e'; // an id changed on the object itself
    expect(spaceIn(org, 'c')).toBeUndefined();
    expect(spaceIn(org, 'e')?.id).toBe('e');
    org.spaces = [space('f')]; // a new array
    expect(spaceIn(org, 'f')?.id).toBe('f');
  });
});
