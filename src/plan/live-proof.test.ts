import { describe, expect, it } from 'vitest';
import { anyListKinds, listIn, lookups } from '../kinds/registry.js';
import { ArrivingList } from '../model/arriving.js';
import type { DesiredOrganization, LiveOrganization } from '../reconcile/index.js';
import { LiveProof, referencesToCheck } from './live-proof.js';
import { provenByLive, referencesOf } from './references.js';

/**
 * The references' proof (`LiveProof`: each config entry against its live twin's names, the rest
 * against the live names at the end) against the plain answer: every live name in a set, each
 * reference looked up in it. Each case is run with its lists arriving in several ways.
 */

const caseless = (target: string) => lookups.some((l) => l.lookup.target === target && l.lookup.caseless);
const compared = (target: string, name: string) => (caseless(target) ? name.toLowerCase() : name);

/** Every name the live state proves, by target: the plain way, written apart from the proof's. */
function plainProven(live: LiveOrganization): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>(lookups.map((l) => [l.lookup.target, new Set<string>()]));
  const add = (target: string, names: readonly string[]) => {
    for (const n of names) out.get(target)!.add(compared(target, n));
  };
  for (const kind of anyListKinds)
    for (const item of listIn(live, kind.key) ?? []) {
      for (const r of kind.liveReferences?.(item as never) ?? []) add(r.target, r.names);
      for (const l of lookups)
        if (l.kind?.key === kind.key && l.lookup.names) add(l.lookup.target, l.lookup.names(item as never));
    }
  add(
    'space',
    (live.spaces ?? []).map((s) => s.id),
  );
  return out;
}

const sorted = (m: ReadonlyMap<string, ReadonlySet<string>>) =>
  [...m].map(([k, v]) => [k, [...v].sort()] as const).sort(([a], [b]) => a.localeCompare(b));

type Site = { title: string; sections?: string[][]; spaces?: string[] };
type Team = { title: string; members?: string[] };

const desiredSite = ({ title, sections, spaces }: Site) => ({
  title,
  ...(sections
    ? {
        sections: sections.map((ids, j) => ({
          path: `s${j}`,
          title: `S${j}`,
          spaces: ids.map((space, k) => ({ space, path: `p${k}` })),
        })),
      }
    : {}),
  ...(spaces ? { spaces: spaces.map((space, k) => ({ space, path: `r${k}` })) } : {}),
});

const liveSite = ({ title, sections, spaces }: Site, i: number) => ({
  id: `site_${i}`,
  title,
  sections: (sections ?? []).map((ids) => ({ spaces: ids.map((space) => ({ space })) })),
  ...(spaces ? { spaces: spaces.map((space) => ({ space })) } : {}),
});

/** A live member's e-mail is `<user>@example.com`, its id `u_<user>` (a config names either). */
const liveTeam = ({ title, members }: Team, i: number) => ({
  id: `team_${i}`,
  title,
  members: (members ?? []).map((m) => ({ userId: `u_${m}`, email: `${m}@example.com` })),
});

type Case = {
  name: string;
  config: { sites?: Site[]; teams?: Team[]; spaces?: string[] };
  live: { sites?: Site[]; teams?: Team[]; members?: string[]; spaces?: string[] };
  /** The ids of the references left to check, in config order. */
  left: string[];
  /** The ids of the list kinds' references their live twins do not name (kept for the end), by kind. */
  ahead: string[];
};

const cases: Case[] = [
  {
    name: 'every reference named by its twin, in order',
    config: {
      sites: [{ title: 'A', sections: [['s1', 's2'], ['s3']] }],
      teams: [{ title: 'T', members: ['ann@example.com'] }],
    },
    live: {
      sites: [{ title: 'A', sections: [['s1', 's2'], ['s3']] }],
      teams: [{ title: 'T', members: ['ann'] }],
    },
    left: [],
    ahead: [],
  },
  {
    name: 'caseless targets: a member in another case, by e-mail or by id, in order or not',
    config: {
      teams: [
        { title: 'T', members: ['Ann@Example.COM', 'U_BOB', 'cy@example.com'] },
        { title: 'New', members: ['DAN@example.com', 'eve@example.com'] },
        // In reverse: the scans are spent, the set answers (lower case too).
        { title: 'Big', members: Array.from({ length: 20 }, (_, i) => `m${19 - i}@EXAMPLE.com`) },
      ],
    },
    live: {
      teams: [
        { title: 'T', members: ['ann', 'Bob'] },
        { title: 'Big', members: Array.from({ length: 20 }, (_, i) => `M${i}`) },
      ],
      // cy is a member of the organization, not of the team; dan of neither team but of the organization.
      members: ['cy', 'dan'],
    },
    left: ['eve@example.com'],
    ahead: ['cy@example.com', 'DAN@example.com', 'eve@example.com'],
  },
  {
    name: 'a name referenced but absent',
    config: {
      sites: [{ title: 'A', sections: [['s1', 'gone']], spaces: ['also-gone'] }],
      teams: [{ title: 'T', members: ['nobody@example.com'] }],
      spaces: ['s1', 'missing'],
    },
    live: { sites: [{ title: 'A', sections: [['s1']] }], teams: [{ title: 'T' }] },
    left: ['nobody@example.com', 'gone', 'also-gone', 'missing'],
    ahead: ['nobody@example.com', 'gone', 'also-gone'],
  },
  {
    name: 'a name present twice: twin sites, config entries of one title, a space named twice',
    config: {
      sites: [
        { title: 'A', sections: [['s1', 's1', 's2', 'x']] },
        { title: 'A', sections: [['s3']] },
        { title: 'B', spaces: ['s2', 's9'] },
      ],
    },
    live: {
      sites: [
        { title: 'A', sections: [['s1']] },
        { title: 'B', spaces: ['s5'] },
        { title: 'A', sections: [['s2', 's3']] },
      ],
    },
    left: ['x', 's9'],
    ahead: ['s2', 'x', 's3', 's2', 's9'],
  },
  {
    name: 'references discovered late: by another site, a later list, the organization spaces, no twin',
    config: {
      sites: [
        { title: 'A', sections: [['b1', 'a1', 'top1']] },
        { title: 'New', spaces: ['a1', 'b2', 'top2', 'nope'] },
      ],
      teams: [{ title: 'T', members: ['late@example.com'] }],
    },
    live: {
      sites: [
        { title: 'A', sections: [['a1']] },
        { title: 'B', sections: [['b1', 'b2']] },
      ],
      teams: [{ title: 'T' }],
      members: ['late'],
      spaces: ['top1', 'top2'],
    },
    left: ['nope'],
    ahead: ['late@example.com', 'b1', 'top1', 'a1', 'b2', 'top2', 'nope'],
  },
  {
    name: 'references in another order than the twin names them (the scans spent, then a set)',
    config: {
      sites: [
        {
          title: 'A',
          sections: [
            Array.from({ length: 40 }, (_, i) => `s${(i * 7) % 40}`),
            ['s39', 'absent', 's0', 'absent2', 's20'],
          ],
        },
      ],
    },
    live: { sites: [{ title: 'A', sections: [Array.from({ length: 40 }, (_, i) => `s${i}`)] }] },
    left: ['absent', 'absent2'],
    ahead: ['absent', 'absent2'],
  },
];

const configOf = (c: Case): DesiredOrganization =>
  ({
    id: 'org',
    policy: {},
    ...(c.config.sites ? { sites: c.config.sites.map(desiredSite) } : {}),
    ...(c.config.teams
      ? {
          teams: c.config.teams.map((t) => ({
            title: t.title,
            members: t.members?.map((user) => ({ user, role: 'member' })),
          })),
        }
      : {}),
    ...(c.config.spaces ? { spaces: c.config.spaces.map((id) => ({ id })) } : {}),
  }) as never;

const liveOf = (c: Case): LiveOrganization =>
  ({
    id: 'org',
    ...(c.live.sites ? { sites: c.live.sites.map(liveSite) } : {}),
    ...(c.live.teams ? { teams: c.live.teams.map(liveTeam) } : {}),
    ...(c.live.members
      ? {
          members: c.live.members.map((m) => ({
            userId: `u_${m}`,
            email: `${m}@example.com`,
            role: 'member',
          })),
        }
      : {}),
    ...(c.live.spaces ? { spaces: c.live.spaces.map((id) => ({ id })) } : {}),
  }) as never;

/**
 * How the lists arrive: `order` the lists given to the proof as they are read (the rest only at
 * `finish`), each paged whole then each item made whole in reverse, the proof stepped `steps`
 * times after each event.
 */
type Arrival = { order: readonly string[]; steps: number };

const arrivals: Arrival[] = [
  { order: [], steps: 0 },
  { order: ['sites', 'teams', 'members'], steps: 1_000 },
  { order: ['members', 'teams', 'sites'], steps: 1 },
  { order: ['teams', 'sites'], steps: 0 },
];

function proofAsRead(config: DesiredOrganization, live: LiveOrganization, how: Arrival): LiveProof {
  const proof = new LiveProof(config);
  for (const key of how.order) {
    const items = listIn(live, key as 'sites') as readonly object[] | undefined;
    if (!items) continue;
    const list = new ArrivingList<object>(true);
    expect(proof.listArriving(key, list)).toBe(true);
    const step = () => {
      for (let i = 0; i < how.steps && proof.step(key) === 'more'; i += 1);
    };
    const paged = items.map((item) => ({ ...item }));
    for (const p of paged) list.paged.push(p);
    list.allPagesRead();
    step();
    for (let i = items.length - 1; i >= 0; i -= 1) {
      list.itemRead(paged[i]!, items[i]!);
      step();
    }
    list.read(items);
    step();
  }
  return proof;
}

describe("the references' proof", () => {
  for (const c of cases)
    it(c.name, () => {
      const config = configOf(c);
      const live = liveOf(c);
      const plain = plainProven(live);
      const expected = referencesOf(config).filter(
        (r) => !plain.get(r.target)?.has(compared(r.target, r.id)),
      );
      expect(expected.map((r) => r.id)).toEqual(c.left);
      // Without the proof: the sets, made as they are read.
      expect(referencesToCheck(config, live)).toEqual(expected);
      expect(sorted(provenByLive(live))).toEqual(sorted(plain));
      for (const how of arrivals) {
        const proof = proofAsRead(config, live, how);
        const proven = proof.finish(live)!;
        const ahead = proof.referencesAhead(config, proven)!;
        const kept = anyListKinds.flatMap((k) => (ahead.get(k.key) ?? []).flatMap((e) => e ?? []));
        expect(
          kept.map((r) => r.id),
          JSON.stringify(how),
        ).toEqual(c.ahead);
        expect(referencesToCheck(config, live, proven, proof), JSON.stringify(how)).toEqual(expected);
        expect(sorted(proven)).toEqual(sorted(plain));
      }
    });

  it('judges nothing ahead with a list that is not the live one, or after a failed step', () => {
    const c = cases[4]!;
    const config = configOf(c);
    const live = liveOf(c);
    const proof = new LiveProof(config);
    proof.listArriving('sites', ArrivingList.read([...live.sites!]));
    while (proof.step('sites') === 'more');
    expect(proof.finish(live)).toBeUndefined();
    // A live site without its sections' spaces: its names cannot be read, the step fails.
    const broken = {
      ...live,
      sites: [{ id: 'site_0', title: 'A', sections: [{}] }],
    } as never as LiveOrganization;
    const failing = new LiveProof(config);
    failing.listArriving('sites', ArrivingList.read(broken.sites!));
    expect(failing.step('sites')).toBe('done');
    expect(failing.finish(broken)).toBeUndefined();
    expect(() => referencesToCheck(config, broken)).toThrow();
  });

  it('walks the entries that name nothing at once: no live twin paired or waited for (teams without members)', () => {
    const teams = [{ title: 'T0' }, { title: 'T1', members: ['ann@example.com'] }, { title: 'T2' }];
    const c: Case = {
      name: '',
      config: { teams },
      live: { teams: [{ title: 'T0' }, { title: 'T1', members: ['ann'] }, { title: 'T2' }] },
      left: [],
      ahead: [],
    };
    const withMembers = configOf(c);
    const without = configOf({ ...c, config: { teams: [{ title: 'T0' }, { title: 'T2' }] } });
    const live = liveOf(c);
    for (const [config, waits] of [
      [withMembers, true],
      [without, false],
    ] as const) {
      const proof = new LiveProof(config);
      // The first page only: T1's twin has not come.
      const list = new ArrivingList<object>(false);
      expect(proof.listArriving('teams', list)).toBe(true);
      list.paged.push(live.teams![0]!);
      list.pageRead();
      expect(proof.step('teams')).toBe(waits ? 'waiting' : 'done');
      for (const t of live.teams!.slice(1)) list.paged.push(t);
      list.allPagesRead();
      list.read(live.teams!);
      while (proof.step('teams') === 'more');
      const proven = proof.finish(live)!;
      const kept = proof.referencesAhead(config, proven)!.get('teams')!;
      // Every entry walked; T1's member is named by its twin (ann), nothing kept.
      expect(kept.map((e) => e?.length)).toEqual(config === without ? [0, 0] : [0, 0, 0]);
      expect(referencesToCheck(config, live, proven, proof)).toEqual(referencesToCheck(config, live));
    }
  });
});
