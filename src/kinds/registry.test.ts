import { describe, expect, it } from 'vitest';
import { capabilitiesOf } from '../api/capabilities.js';
import type { ChangeOp } from '../reconcile/index.js';
import { resourceKinds } from './registry.js';
import { absentKinds, kindModules, opDef, readOnlyKinds, relationKinds } from './registry.js';
import type { Resolver } from './types.js';

/** Refs resolve to `<id>`, or `new:<change>` for what a change creates; patches pass through. */
const r: Resolver = {
  ref: (ref) => ('id' in ref ? ref.id : `new:${ref.change}`),
  patch: (patch) => patch,
  position: (position, type, key) => {
    const where = position.before ? 'before' : 'after';
    return { [where]: { type, [key]: r.ref((position.before ?? position.after)!) } };
  },
};
const seed = capabilitiesOf('seed');
const current = capabilitiesOf('current');
const site = { id: 'site_1' };

describe('the kind registry', () => {
  it('has one module per kind of the plan, and no operation twice', () => {
    expect(kindModules.map((k) => k.kind).sort()).toEqual([...resourceKinds].sort());
    const types = kindModules.flatMap((k) => Object.keys(k.ops));
    expect(new Set(types).size).toBe(types.length);
  });

  it('names its relations (model/ types them as strings)', () => {
    expect([...relationKinds]).toEqual(['section-group-membership']);
  });

  it('knows which kinds a flavor lacks from the modules themselves (absentIn), not from the capabilities', () => {
    expect([...absentKinds('seed')].sort()).toEqual([
      'collection-grant',
      'invite-link',
      'site-agent-settings',
      'site-customization',
      'site-external-link',
      'site-grant',
      'site-publication',
      'site-redirect',
      'site-visitor-auth',
      'space-grant',
    ]);
    expect([...absentKinds('current')].sort()).toEqual([
      'custom-field',
      'space-custom-fields',
      'translation',
    ]);
    expect([...readOnlyKinds('current')]).toEqual(['translation']);
    expect([...readOnlyKinds('seed')]).toEqual([]);
    // The capabilities name no kind: the modules declare where they are absent or read-only.
    expect(Object.keys(seed)).not.toContain('absent');
    expect(Object.keys(current)).not.toContain('readOnly');
  });

  it.each<[string, ChangeOp, string, string, unknown]>([
    [
      'a section move, api.md',
      { type: 'move-section', org: 'o', site, section: { id: 's1' }, position: { before: { id: 's2' } } },
      'seed',
      'POST /orgs/{org}/sites/{site}/sections/{section}/move',
      { position: { before: { type: 'site-section', siteSection: 's2' } } },
    ],
    [
      'a section move, today',
      { type: 'move-section', org: 'o', site, section: { id: 's1' }, position: { after: { id: 's2' } } },
      'current',
      'PATCH /orgs/{org}/sites/{site}/structure/sort',
      { item: { type: 'site-section', id: 's1' }, position: { after: { type: 'site-section', id: 's2' } } },
    ],
    [
      'a group move, api.md',
      { type: 'move-section-group', org: 'o', site, group: { id: 'g1' }, position: { before: { id: 's2' } } },
      'seed',
      'POST /orgs/{org}/sites/{site}/section-groups/{group}/move',
      { position: { before: { type: 'site-section', id: 's2' } } },
    ],
    [
      'joining a group, api.md',
      { type: 'add-group-section', org: 'o', site, group: { id: 'g1' }, section: { change: 'c3' } },
      'seed',
      'POST /orgs/{org}/sites/{site}/section-groups/{group}/sections',
      { sectionId: 'new:c3' },
    ],
    [
      'joining a group, today',
      { type: 'add-group-section', org: 'o', site, group: { id: 'g1' }, section: { id: 's1' } },
      'current',
      'PATCH /orgs/{org}/sites/{site}/sections/{section}',
      { siteSectionGroupId: 'g1' },
    ],
    [
      'leaving a group, today',
      { type: 'remove-group-section', org: 'o', site, group: { id: 'g1' }, section: { id: 's1' } },
      'current',
      'PATCH /orgs/{org}/sites/{site}/sections/{section}',
      { siteSectionGroupId: null },
    ],
  ])('%s: one call, as the capabilities say', (_name, op, flavor, call, body) => {
    const made = opDef(op).call(op as never, r, flavor === 'seed' ? seed : current);
    expect(`${made.method} ${made.route}`).toBe(call);
    expect(made.body).toEqual(body);
  });

  it('sends deletes expecting the answers the API gives to a delete', () => {
    const op: ChangeOp = { type: 'delete-share-link', org: 'o', site, shareLink: { id: 'l1' } };
    const made = opDef(op).call(op as never, r, seed);
    expect(made).toMatchObject({ method: 'DELETE', params: { org: 'o', site: 'site_1', link: 'l1' } });
    expect(made.expect).toEqual(seed.deleteAnswers);
  });

  it('declares how to find every creation again after an ambiguous failure', () => {
    const creations = kindModules.flatMap((k) =>
      Object.entries(k.ops as Record<string, { adopt?: unknown }>).filter(([type]) =>
        type.startsWith('create-'),
      ),
    );
    expect(creations.length).toBeGreaterThan(8);
    expect(creations.filter(([, def]) => !def.adopt).map(([type]) => type)).toEqual([]);
  });
});
