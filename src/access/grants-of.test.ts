import { describe, expect, it } from 'vitest';
import { desiredGrantsOf, liveGrantsOf } from './grants-of.js';

describe('grantsOf', () => {
  it('reads the typed `access` of an entry, with no cast: an entry of another shape is a type error', () => {
    const space = { id: 'space_1', access: [{ team: 'Platform', role: 'read' as const }] };
    expect(desiredGrantsOf(space)).toEqual([{ team: 'Platform', role: 'read' }]);
    expect(liveGrantsOf({ access: undefined })).toBeUndefined();
    // A config file's grant (team and member both optional) is not a desired grant: the types say so.
    // @ts-expect-error neither team nor member
    expect(desiredGrantsOf({ access: [{ role: 'read' as const }] })).toHaveLength(1);
  });
});
