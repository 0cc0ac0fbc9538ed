import { describe, expect, it } from 'vitest';
import { renderTreeText } from '../../src/plan/render-tree.js';
import { STRUCTURE_KINDS, type StructureNode } from '../../src/plan/structure-node.js';
import { structureTree } from '../../src/plan/structure-tree.js';
import { cases, planCase } from '../helpers/golden.js';

const loaded = new Map<string, Awaited<ReturnType<typeof planCase>>>();
for (const name of cases) loaded.set(name, await planCase(name));
const load = (name: string) => loaded.get(name)!;

const sectionsOf = (site: StructureNode): StructureNode[] =>
  site.children.flatMap((n) => (n.kind === 'section-group' ? n.children : n.kind === 'section' ? [n] : []));

const structural = cases.filter((name) => load(name).plan.changes.some((c) => STRUCTURE_KINDS.has(c.kind)));

describe('structure tree', () => {
  it('has structural golden cases to check', () => expect(structural.length).toBeGreaterThanOrEqual(10));

  it.each(structural)(
    '%s: every structure change lands on a node, and applying them gives the configured order',
    (name) => {
      const { plan, live, desired } = load(name);
      const changes = plan.changes.filter((c) => STRUCTURE_KINDS.has(c.kind));
      const pending = structureTree(plan.organizations, live, plan.changes);
      expect(pending.flatMap((o) => o.unplaced.map((c) => c.address))).toEqual([]);
      const marked = new Set<string>();
      const visit = (n: StructureNode) => {
        for (const c of n.changes) marked.add(c.id);
        n.children.forEach(visit);
      };
      pending.forEach((o) => o.sites.forEach(visit));
      expect([...marked].sort()).toEqual(changes.map((c) => c.id).sort());

      const done = structureTree(plan.organizations, live, plan.changes, {
        applied: new Set(plan.changes.map((c) => c.id)),
      });
      for (const org of desired.organizations) {
        const tree = done.find((o) => o.organization === org.id)!;
        for (const site of org.sites ?? []) {
          const node = tree.sites.find((s) => s.key === site.title);
          expect(node, `${name}: site ${site.title}`).toBeDefined();
          expect(node!.mark).toBeUndefined();
          if (site.sections && !site.sectionGroups) {
            const want = site.sections.map((s) => s.path);
            const sections = sectionsOf(node!);
            expect(sections.map((s) => s.key).filter((k) => want.includes(k))).toEqual(want);
            for (const s of site.sections) {
              const spaces = sections.find((n) => n.key === s.path)!.children.map((n) => n.key);
              expect(spaces.filter((k) => s.spaces.some((x) => x.space === k))).toEqual(
                s.spaces.map((x) => x.space),
              );
            }
          }
          for (const g of site.sectionGroups ?? []) {
            const group = node!.children.find((n) => n.kind === 'section-group' && n.key === g.title);
            expect(group?.children.map((n) => n.key)).toEqual(expect.arrayContaining(g.sections ?? []));
          }
        }
      }
    },
  );

  it('draws marks and changed fields in the text form', () => {
    const { plan, live } = load('section-create-delete');
    const text = renderTreeText(structureTree(plan.organizations, live, plan.changes, { arrange: 'after' }), {
      marks: true,
    });
    expect(text).toMatch(/^\+ {3,}\S.* \/\S+/m);
    expect(text).toMatch(/^- {3,}\S/m);
    expect(text).toContain('(site)');
    const plain = renderTreeText(structureTree(plan.organizations, live, []));
    expect(plain).not.toMatch(/^[+~↕-]/m);
  });

  it('follows a renamed site: its children are found under the new name', () => {
    const { plan, live } = load('site-rename-pinned');
    const [org] = structureTree(plan.organizations, live, plan.changes);
    expect(org!.unplaced).toEqual([]);
    expect(org!.sites.some((s) => s.mark === '~')).toBe(true);
  });
});
