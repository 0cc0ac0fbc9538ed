import { describe, expect, it } from 'vitest';
import type { DiffContext } from '../diff/context.js';
import type { NavSlot, SiteScope } from '../diff/site-scope.js';
import { diffGroups } from './section-group-diff.js';
import { diffContext } from '../../test/helpers/diff-context.js';
import { rng } from '../../test/helpers/random-state.js';
import { pick, shuffle, type Random } from './examples.js';
import type { DesiredStructure, LiveSection, LiveSiteSpace, LiveStructure } from './site-section.js';
import { normalizeStructure } from './site-structure-config.js';
import { diffStructure } from './site-structure-diff.js';
import { keptStructure, structureAsLive } from './site-structure-kept.js';
import { diffSiteStructure, randomStructure, setSiteNav } from './site-structure.js';

/**
 * The fast path of an unchanged structure (site-structure-kept.ts) against the full diff
 * (site-structure-diff.ts): where it is taken, the full diff plans nothing and leaves the same
 * counts and slots; the whole structure step (groups and the external links' items too) leaves
 * the same context either way.
 */

/** An empty diff context of organization `org` (the scope's addresses below are of `org`). */
const context = (prune: boolean): DiffContext => ({ ...diffContext({ prune }), org: 'org' });

const scope = (navRead: boolean, pathsRead: boolean): SiteScope => ({
  addr: 'org/sites/Docs',
  ref: { id: 'site_1' },
  patch: { before: {}, after: {}, body: {}, deps: [] },
  ...(navRead ? { navRead } : {}),
  ...(pathsRead ? { pathsRead } : {}),
});

/** The site's recorded paths as text: their maps' entries in order. */
const pathsText = (site: SiteScope) =>
  JSON.stringify(site.paths, (_, v: unknown) => (v instanceof Map ? [...v.entries()] : v));

/** diffSiteStructure with the full diff always (what it was before its fast path). */
function fullStructureStep(ctx: DiffContext, site: SiteScope, d: DesiredStructure, l: LiveStructure) {
  const slots = d.sections || d.spaces ? diffStructure(ctx, site, 'Docs', d, l) : [];
  const groups = d.sectionGroups ? diffGroups(ctx, site, 'Docs', d, l, slots) : new Map<string, NavSlot>();
  setSiteNav(site, slots, groups);
}

/** What a structure step leaves in its context, as the plan would read it. */
const leftIn = (ctx: DiffContext) =>
  JSON.stringify({
    drafts: ctx.drafts.drafts,
    unmanaged: ctx.unmanaged,
    problems: ctx.problems,
    warnings: ctx.warnings,
    live: ctx.managedLive,
  });

const liveSpace = (ds: DesiredStructure['spaces'] & object, k: number): LiveSiteSpace => {
  const s = ds[k]!;
  return {
    id: `ss_${s.space}`,
    space: s.space,
    path: s.path ?? `auto-${s.space}`,
    condition: s.condition ?? null,
    default: s.default ?? false,
    draft: s.draft ?? false,
    hidden: s.hidden ?? false,
    pageId: s.pageId ?? null,
  };
};

/** The live structure the config describes (its twin), with ids, groups and memberships. */
function twin(d: DesiredStructure): LiveStructure {
  const groupOf = new Map<string, string>();
  d.sectionGroups?.forEach((g, i) => g.sections?.forEach((p) => groupOf.set(p, `grp_${i}`)));
  const sections: LiveSection[] | undefined = d.sections?.map((s, i) => ({
    id: `sec_${i}`,
    path: s.path,
    title: s.title ?? `Title ${i}`,
    icon: s.icon ?? null,
    description: s.description ?? null,
    condition: s.condition ?? null,
    default: s.default ?? false,
    draft: s.draft ?? false,
    localizedTitle: s.localizedTitle ?? {},
    localizedDescription: s.localizedDescription ?? {},
    group: groupOf.get(s.path) ?? null,
    spaces: s.spaces.map((_, k) => liveSpace(s.spaces, k)),
  }));
  return {
    ...(sections ? { sections } : {}),
    ...(d.sectionGroups
      ? {
          sectionGroups: d.sectionGroups.map((g, i) => ({
            id: `grp_${i}`,
            title: g.title,
            icon: g.icon ?? null,
            draft: g.draft ?? false,
            localizedTitle: g.localizedTitle ?? {},
            parent: null,
          })),
        }
      : {}),
    ...(d.spaces ? { spaces: d.spaces.map((_, k) => liveSpace(d.spaces!, k)) } : {}),
  };
}

type Change = { name: string; kept: boolean; apply: (l: LiveStructure, r: Random) => void };
const sectionsOf = (l: LiveStructure) => l.sections ?? [];
const anySpace = (l: LiveStructure, r: Random) => {
  const places = [...sectionsOf(l).map((s) => s.spaces), l.spaces ?? []].filter((p) => p.length > 0);
  return places.length > 0 ? pick(r, places) : undefined;
};

/** Near-equal live twins: each is one change the diff plans for (or, `kept`, none). */
const changes: Change[] = [
  { name: 'equal', kept: true, apply: () => {} },
  {
    name: 'a section title changed',
    kept: false,
    apply: (l, r) => {
      if (sectionsOf(l).length) pick(r, sectionsOf(l)).title = 'Changed';
    },
  },
  {
    name: 'a section path changed',
    kept: false,
    apply: (l, r) => {
      if (sectionsOf(l).length) pick(r, sectionsOf(l)).path = 'zz';
    },
  },
  {
    name: 'a site space path changed',
    kept: false,
    apply: (l, r) => {
      const place = anySpace(l, r);
      if (place) pick(r, place).path = 'changed';
    },
  },
  {
    name: 'a site space hidden',
    kept: false,
    apply: (l, r) => {
      const place = anySpace(l, r);
      if (place) pick(r, place).hidden = true;
    },
  },
  {
    name: 'a site space moved to another section',
    kept: false,
    apply: (l) => {
      const s = sectionsOf(l);
      const from = s.find((x) => x.spaces.length > 1);
      const to = s.find((x) => x !== from);
      if (from && to) to.spaces.push(from.spaces.pop()!);
    },
  },
  {
    name: 'two sections reordered',
    kept: false,
    apply: (l) => {
      const s = sectionsOf(l);
      if (s.length > 1) [s[0], s[1]] = [s[1]!, s[0]!];
    },
  },
  {
    name: 'two site spaces reordered',
    kept: false,
    apply: (l) => {
      const place = [...sectionsOf(l).map((x) => x.spaces), l.spaces ?? []].find((p) => p.length > 1);
      if (place) [place[0], place[1]] = [place[1]!, place[0]!];
    },
  },
  {
    name: 'a live section the config omits',
    kept: false,
    apply: (l) => {
      l.sections?.push({ ...sectionsOf(l)[0]!, id: 'sec_extra', path: 'extra', spaces: [] });
    },
  },
  {
    name: 'a live site space the config omits',
    kept: false,
    apply: (l, r) => {
      const place = anySpace(l, r);
      if (place) place.push({ ...place[0]!, id: 'ss_extra', space: 'space_extra', path: 'extra' });
    },
  },
  {
    name: 'the default site space elsewhere',
    kept: false,
    apply: (l) => {
      for (const place of [...sectionsOf(l).map((x) => x.spaces), l.spaces ?? []])
        if (place.length > 1 && place.some((x) => x.default)) for (const x of place) x.default = !x.default;
    },
  },
  {
    name: 'the default section elsewhere',
    kept: false,
    apply: (l) => {
      for (const s of sectionsOf(l)) s.default = !s.default;
    },
  },
];

/** A config's structure: random sections (with groups, defaults and icons), or root site spaces. */
function randomDesired(r: Random): DesiredStructure {
  const config = randomStructure(r);
  if (r() < 0.25)
    return normalizeStructure({
      spaces: shuffle(r, ['space_1', 'space_2', 'space_3', 'space_4'])
        .slice(0, 1 + Math.floor(r() * 4))
        .map((space, i) => ({
          space,
          ...(i === 0 && r() < 0.5 ? { default: true } : {}),
          ...(r() < 0.3 ? { path: `p-${space}`, brokenLinks: 'refuse' } : {}),
        })),
    } as never);
  const d = normalizeStructure(config as never);
  // Some fields the diff compares, given as the live twin reads them.
  for (const s of d.sections ?? []) {
    if (r() < 0.2) s.brokenLinks = pick(r, ['allow', 'refuse'] as const);
    for (const ss of s.spaces) {
      if (r() < 0.2) Object.assign(ss, { hidden: false, condition: null });
      if (r() < 0.1) ss.brokenLinks = 'allow';
    }
  }
  return d;
}

describe('an unchanged structure (site-structure-kept.ts)', () => {
  const runs = Array.from({ length: 60 }, (_, seed) => seed);
  it.each(runs)(
    'seed %i: the fast path where the full diff plans nothing, with the same counts, slots and paths',
    (seed) => {
      const r = rng(seed + 1);
      const d = randomDesired(r);
      for (const change of changes)
        for (const prune of [true, false])
          for (const pathsRead of [true, false]) {
            const l = twin(d);
            change.apply(l, r);
            const full = context(prune);
            const fullSite = scope(false, pathsRead);
            const fullSlots = diffStructure(full, fullSite, 'Docs', d, l);
            const asLive = structureAsLive(d, l);
            if (change.kept) expect(asLive).toBe(true);
            if (!asLive) continue;
            expect(full.drafts.drafts).toEqual([]);
            expect(full.warnings).toEqual([]);
            expect(full.unmanaged).toEqual([]);
            const fast = context(prune);
            const fastSite = scope(false, pathsRead);
            const fastSlots = keptStructure(fast, fastSite, d, l, true);
            expect(leftIn(fast)).toBe(leftIn(full));
            expect(fastSlots).toEqual(fullSlots);
            // The site's update and its paths (a Map's order too) as the full diff leaves them.
            expect(fastSite).toEqual(fullSite);
            if (pathsRead) expect(pathsText(fastSite)).toBe(pathsText(fullSite));
          }
    },
  );

  it.each(runs)('seed %i: the whole structure step leaves what the full diff does', (seed) => {
    const r = rng(seed + 1000);
    const d = randomDesired(r);
    for (const change of changes)
      for (const prune of [true, false])
        for (const navRead of [true, false]) {
          const l = twin(d);
          change.apply(l, r);
          const fast = context(prune);
          const fastSite = scope(navRead, true);
          diffSiteStructure(fast, fastSite, 'Docs', d, l);
          const full = context(prune);
          const fullSite = scope(navRead, true);
          fullStructureStep(full, fullSite, d, l);
          expect(leftIn(fast)).toBe(leftIn(full));
          expect(fastSite).toEqual(fullSite);
          expect(pathsText(fastSite)).toBe(pathsText(fullSite));
        }
  });

  it('a change the diff plans is never taken for none', () => {
    let fast = 0;
    for (let seed = 0; seed < 200; seed += 1) {
      const r = rng(seed + 5000);
      const d = randomDesired(r);
      for (const change of changes) {
        const l = twin(d);
        change.apply(l, r);
        const ctx = context(true);
        const site = scope(false, false);
        diffStructure(ctx, site, 'Docs', d, l);
        const planned = ctx.drafts.drafts.length > 0 || Object.keys(site.patch.after).length > 0;
        if (structureAsLive(d, l)) {
          fast += 1;
          expect(planned).toBe(false);
        }
      }
    }
    // The equal twins at least (one in each seed's list of changes).
    expect(fast).toBeGreaterThanOrEqual(200);
  });

  it('customization overrides take the full diff', () => {
    const d = normalizeStructure({
      sections: [{ path: 'a', title: 'A', spaces: [{ space: 'space_1', customization: {} }] }],
    } as never);
    expect(structureAsLive(d, twin(d))).toBe(false);
  });
});
