import type { DesiredOrganization, DesiredSite } from '../../src/model/index.js';

export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(r: () => number, items: readonly T[]): T => items[Math.floor(r() * items.length)]!;
function shuffle<T>(r: () => number, items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(r() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

const SPACES = Array.from({ length: 12 }, (_, i) => `space_${i + 1}`);
const USERS = ['user_a', 'b@example.com', 'user_c', 'd@example.com'];
const PATHS = ['a', 'b', 'c', 'd', 'e', 'f'];

/** A random site structure: sections from a random subset of spaces, in random order. */
function randomSections(r: () => number) {
  const spaces = shuffle(r, SPACES).slice(0, 2 + Math.floor(r() * 8));
  const paths = shuffle(r, PATHS).slice(0, 1 + Math.floor(r() * Math.min(4, spaces.length)));
  const sections = paths.map((path) => ({
    path,
    title: `Section ${path.toUpperCase()}${r() < 0.3 ? ' v2' : ''}`,
    spaces: [] as { space: string; path?: string; default?: boolean }[],
  }));
  spaces.forEach((space, i) =>
    sections[i % sections.length]!.spaces.push({
      space,
      ...(r() < 0.5 ? { path: `p-${space.slice(6)}${r() < 0.3 ? 'x' : ''}` } : {}),
    }),
  );
  for (const s of sections) if (r() < 0.4) pick(r, s.spaces).default = true;
  return sections.filter((s) => s.spaces.length > 0);
}

export function randomDesired(r: () => number): DesiredOrganization {
  const sites: DesiredSite[] = [];
  for (const title of ['Docs', 'Guides']) {
    if (r() < 0.3) continue;
    const sections = randomSections(r);
    const groupPaths = shuffle(
      r,
      sections.map((s) => s.path),
    );
    const site: DesiredSite = {
      title,
      ...(r() < 0.5 ? { visibility: pick(r, ['public', 'unlisted', 'share-link'] as const) } : {}),
      ...(r() < 0.5 ? { basename: pick(r, ['docs', 'help', 'kb']) } : {}),
      ...(r() < 0.3 ? { proxy: r() < 0.5 ? null : 'company.com/docs' } : {}),
      sections: sections.map((s, i) => ({
        ...s,
        ...(i === 0 && r() < 0.5 ? { default: true } : {}),
        ...(r() < 0.3 ? { icon: pick(r, ['book', null]) } : {}),
      })),
      ...(r() < 0.6
        ? {
            sectionGroups: [
              { title: 'G1', sections: groupPaths.slice(0, 1) },
              { title: 'G2', sections: groupPaths.slice(1, 2) },
            ].slice(0, 1 + Math.floor(r() * 2)),
          }
        : {}),
      ...(r() < 0.6
        ? {
            shareLinks: shuffle(r, ['p1', 'p2', 'p3'])
              .slice(0, Math.floor(r() * 3))
              .map((name) => ({ name, ...(r() < 0.5 ? { active: r() < 0.5 } : {}) })),
          }
        : {}),
    };
    sites.push(site);
  }
  return {
    id: 'org_t',
    policy: { prune: r() < 0.6, maxDeletes: 1000 },
    ...(r() < 0.7
      ? {
          customFields: shuffle(r, ['owner', 'tier', 'team'])
            .slice(0, 1 + Math.floor(r() * 3))
            .map((name) => ({ name, type: 'text' as const, ...(r() < 0.5 ? { title: `T ${name}` } : {}) })),
        }
      : {}),
    ...(r() < 0.7
      ? {
          teams: shuffle(r, ['Writers', 'Reviewers', 'Ops'])
            .slice(0, 1 + Math.floor(r() * 3))
            .map((title) => ({
              title,
              ...(r() < 0.7
                ? {
                    members: shuffle(r, USERS)
                      .slice(0, Math.floor(r() * 4))
                      .map((user) => ({ user, role: pick(r, ['owner', 'member'] as const) })),
                  }
                : {}),
            })),
        }
      : {}),
    sites,
  };
}

/** A random live organization, as an emulator seed, over the same names (so pairs collide). */
export function randomLiveSeed(r: () => number): Record<string, unknown> {
  const sites = ['Docs', 'Guides', 'Old']
    .filter(() => r() < 0.6)
    .map((title) => ({
      title,
      sections: randomSections(r).map((s) => ({
        title: s.title,
        path: s.path,
        siteSpaces: s.spaces.map((x) => ({ space: x.space, ...(x.path ? { path: x.path } : {}) })),
      })),
      shareLinks: shuffle(r, ['p1', 'p2', 'old'])
        .slice(0, Math.floor(r() * 3))
        .map((name) => ({ name, active: r() < 0.5 })),
      sectionGroups: r() < 0.5 ? [{ title: 'G1' }, { title: 'Old group' }] : [],
    }));
  return {
    organizations: [
      {
        id: 'org_t',
        members: [
          { id: 'user_a', email: 'a@example.com' },
          { id: 'user_b', email: 'b@example.com' },
          { id: 'user_c', email: 'c@example.com' },
          { id: 'user_d', email: 'd@example.com' },
        ],
        spaces: SPACES.map((id) => ({ id, title: `Title ${id}` })),
        customFields: shuffle(r, ['owner', 'legacy'])
          .slice(0, Math.floor(r() * 2))
          .map((name) => ({ name, type: 'text' })),
        teams: shuffle(r, ['Writers', 'Old team'])
          .slice(0, Math.floor(r() * 2))
          .map((title) => ({
            title,
            members: shuffle(r, ['user_a', 'user_b', 'user_c']).slice(0, Math.floor(r() * 3)),
          })),
        sites,
      },
    ],
  };
}
