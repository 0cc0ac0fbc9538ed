import diagnostics from 'node:diagnostics_channel';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { capabilitiesOf } from '../api/capabilities.js';
import { readLive } from '../live/read.js';
import { buildPlan } from '../plan/build.js';
import { makePlan } from './plan-run.js';
import { listIn } from '../kinds/registry.js';
import { siteKind } from '../kinds/site.js';
import { shuffle } from '../kinds/examples.js';
import { ArrivingList } from '../model/arriving.js';
import { teamKind } from '../kinds/team.js';
import type { ApiCapabilities } from '../model/capabilities.js';
import type { ApiClient } from '../api/client.js';
import type { Plan } from '../plan/types.js';
import { syntheticModels } from '../../bench/synthetic.js';
import { client, withEmulator } from '../../test/helpers/emulator.js';
import { randomDesired, randomLiveSeed, rng } from '../../test/helpers/random-state.js';
import { diff, DiffAhead, diffAheadOf } from '../reconcile/diff.js';
import { LiveProof, referencesToCheck } from '../plan/live-proof.js';
import { provenByLive } from '../plan/references.js';
import type { DesiredState, LiveState } from '../reconcile/state.js';

/**
 * The diff with the kinds that can be diffed ahead read in `order`, each stepped `steps` times
 * when read (the rest when the diff takes it), as `makePlan` does while the lists are read.
 */
function diffedAhead(
  desired: DesiredState,
  live: LiveState,
  capabilities: ApiCapabilities,
  order: readonly string[],
  steps: (key: string) => number,
): { diffs: ReturnType<typeof diff>; ahead: number } {
  const ahead = diffAheadOf(desired, { capabilities });
  let started = 0;
  for (const org of live.organizations) {
    const one = ahead.get(org.id)!;
    for (const key of order) {
      const items = listIn(org, key as 'sites');
      if (!items || !one.listArriving(key, ArrivingList.read(items))) continue;
      started += 1;
      for (let i = 0; i < steps(key) && one.step(key) === 'more'; i += 1);
    }
  }
  return { diffs: diff(desired, live, { capabilities }, ahead), ahead: started };
}

/**
 * What the live read proves with the lists in `order` proven early (`steps` steps each when read),
 * against `provenByLive`: the same names, and the same references left to check, also from those
 * kept ahead. Returns how many kept ahead the end's proof dropped (its sets had grown since).
 */
function expectSameProof(
  desired: DesiredState,
  live: LiveState,
  order: readonly string[],
  steps: number,
): number {
  let filtered = 0;
  for (const org of live.organizations) {
    const config = desired.organizations.find((o) => o.id === org.id)!;
    // With the config: each list kind's entries' references are also kept ahead as it is proven.
    const proof = new LiveProof(config);
    for (const key of order) {
      const items = listIn(org, key as 'sites');
      if (items && proof.listArriving(key, ArrivingList.read(items)))
        for (let i = 0; i < steps && proof.step(key) === 'more'; i += 1);
    }
    const early = proof.finish(org)!;
    const whole = provenByLive(org);
    expect(sorted(early)).toEqual(sorted(whole));
    const plain = referencesToCheck(config, org);
    expect(referencesToCheck(config, org, early)).toEqual(plain);
    expect(referencesToCheck(config, org, early, proof)).toEqual(plain);
    // Another proof's sets, or another config: what was kept ahead is not used.
    expect(proof.referencesAhead(config, whole)).toBeUndefined();
    expect(proof.referencesAhead({ ...config }, early)).toBeUndefined();
    const left = new Set(plain.map((r) => JSON.stringify(r.path)));
    for (const kept of proof.referencesAhead(config, early)!.values())
      for (const entry of kept)
        filtered += entry?.filter((r) => !left.has(JSON.stringify(r.path))).length ?? 0;
  }
  return filtered;
}

/** How `diffedAsRead` reads the lists: the pages' size, the reads below in order or not, a step count. */
type Arrival = { pageSize: number; random: () => number; shuffled: boolean; steps: number; fail?: string };

type Item = { id: string; title: string };

/**
 * The diff with the sites and teams diffed ahead as `readList` reads them (an `ArrivingList` each):
 * their pages come `pageSize` items at a time, the sites as paged with their id and title only,
 * then each site whole as its reads below end (in the list's order, or `shuffled`), the two lists'
 * events interleaved at random and the work ahead stepped `steps` times after each. The live
 * state's arrays are the lists read; a site titled `fail` never ends its reads (its list is never
 * read: the live state then holds another array, as after a read that failed and was read again).
 */
function diffedAsRead(
  desired: DesiredState,
  live: LiveState,
  capabilities: ApiCapabilities,
  how: Arrival,
): { diffs: ReturnType<typeof diff>; proven: (Map<string, Set<string>> | undefined)[] } {
  const ahead = diffAheadOf(desired, { capabilities });
  const proven: (Map<string, Set<string>> | undefined)[] = [];
  for (const org of live.organizations) {
    const one = ahead.get(org.id)!;
    const proof = new LiveProof();
    const lists = (['sites', 'teams'] as const).flatMap((key) => {
      const items = org[key] as Item[] | undefined;
      if (!items) return [];
      const list = new ArrivingList<Item>(key === 'sites');
      one.listArriving(key, list);
      proof.listArriving(key, list);
      const step = () => {
        for (let i = 0; i < how.steps && one.step(key) === 'more'; i += 1);
        for (let i = 0; i < how.steps && proof.step(key) === 'more'; i += 1);
      };
      return [arrivalOf(list, items, key === 'sites', how).map((event) => () => (event(), step()))];
    });
    // The lists' events interleaved at random, each list's in its own order.
    while (lists.some((l) => l.length > 0)) {
      const left = lists.filter((l) => l.length > 0);
      left[Math.floor(how.random() * left.length)]!.shift()!();
    }
    proven.push(proof.finish(org));
  }
  return { diffs: diff(desired, live, { capabilities }, ahead), proven };
}

/** The events of one list's read, as `readList` tells them (see `diffedAsRead`). */
function arrivalOf(list: ArrivingList<Item>, items: Item[], below: boolean, how: Arrival): (() => void)[] {
  const paged = items.map((item) => (below ? { id: item.id, title: item.title } : item));
  const events: (() => void)[] = [];
  for (let from = 0; from < items.length; from += how.pageSize)
    events.push(() => {
      for (const item of paged.slice(from, from + how.pageSize)) list.paged.push(item);
      list.pageRead();
    });
  events.push(() => list.allPagesRead());
  if (!below) return [...events, () => list.read(items)];
  const order = items.map((_, i) => i);
  const done = how.shuffled ? shuffle(how.random, order) : order;
  for (const i of done)
    if (items[i]!.title !== how.fail) events.push(() => list.itemRead(paged[i]!, items[i]!));
  if (!items.some((item) => item.title === how.fail)) events.push(() => list.read(items));
  return events;
}

/** Proven names, sorted (the early proof holds them in another order). */
const sorted = (m: Map<string, Set<string>>) => [...m].map(([k, v]) => [k, [...v].sort()]).sort();

/** The config with its teams replaced. */
const withTeams = (desired: DesiredState, teams: unknown[]): DesiredState =>
  ({
    ...desired,
    organizations: [{ ...desired.organizations[0]!, teams }],
  }) as DesiredState;

/** The plan's bytes and the diff's (drafts, problems, warnings, counts and their keys' order). */
const bytes = (diffs: ReturnType<typeof diff>) => JSON.stringify([diffs, buildPlan(diffs)]);

describe('diffing kinds ahead, while other lists are read', () => {
  afterEach(() => vi.restoreAllMocks());

  it('gives the same diff and plan, byte for byte, on the benchmark organization', () => {
    const { desired, live } = syntheticModels(4_000);
    const capabilities = capabilitiesOf('seed');
    const sequential = bytes(diff(desired, live, { capabilities }));
    for (const [order, steps] of [
      [['sites', 'teams'], () => 3],
      [['teams', 'sites'], () => 0],
      [['sites'], () => 1_000_000],
      [['teams', 'sites'], (key: string) => (key === 'teams' ? 1_000_000 : 7)],
    ] as const) {
      const { diffs, ahead } = diffedAhead(desired, live, capabilities, order, steps);
      expect(ahead).toBe(order.length);
      expect(bytes(diffs)).toBe(sequential);
      expectSameProof(desired, live, order, steps('sites'));
    }
  });

  it('gives the same diff and plan, byte for byte, on random states', async () => {
    const random = rng(33);
    let ahead = 0;
    let dropped = 0;
    for (let i = 0; i < 8; i += 1) {
      const flavor = i % 3 === 2 ? 'current' : 'seed';
      const desired: DesiredState = { organizations: [randomDesired(random, flavor)] };
      const emu = await withEmulator({ seed: randomLiveSeed(random), flavor });
      const api = client(emu, { flavor });
      try {
        const live = await readLive(api, desired);
        const { capabilities } = api;
        const sequential = bytes(diff(desired, live, { capabilities }));
        const order = i % 2 === 0 ? ['sites', 'teams'] : ['teams', 'sites'];
        const steps = Math.floor(random() * 4);
        const run = diffedAhead(desired, live, capabilities, order, () => steps);
        ahead += run.ahead;
        expect(bytes(run.diffs), `case ${i}`).toBe(sequential);
        dropped += expectSameProof(desired, live, [...order, 'members', 'customFields'], steps);
      } finally {
        await api.close();
        await emu.close();
      }
    }
    // The random configs give sites and teams often enough for the comparison to mean something.
    expect(ahead).toBeGreaterThan(4);
    // Some references kept ahead were proven by a list read after theirs (members after teams).
    expect(dropped).toBeGreaterThan(0);
  });

  it('gives the same diff as the lists are read: pages, reads below out of order, configs in another order', () => {
    const { desired, live } = syntheticModels(4_000);
    const capabilities = capabilitiesOf('seed');
    const random = rng(43);
    // The config lists its teams in another order than the API: a team's diff waits for its page.
    const reordered = withTeams(desired, shuffle(random, desired.organizations[0]!.teams!));
    for (const config of [desired, reordered]) {
      const sequential = bytes(diff(config, live, { capabilities }));
      for (const [pageSize, shuffled, steps] of [
        [1_000, false, 1],
        [100, true, 0],
        [7, true, 1],
        [100, false, 3],
        [50, true, 1_000],
      ] as const) {
        const how = { pageSize, shuffled, steps, random };
        const take = vi.spyOn(DiffAhead.prototype, 'take');
        const run = diffedAsRead(config, live, capabilities, how);
        expect(bytes(run.diffs), JSON.stringify({ pageSize, shuffled, steps })).toBe(sequential);
        // Both kinds were diffed ahead, not again in place (unless never stepped: not begun).
        const taken = take.mock.calls.flatMap(([key], i) => (take.mock.results[i]!.value ? [key] : []));
        expect(taken).toEqual(steps > 0 ? ['teams', 'sites'] : []);
        take.mockRestore();
        expect(sorted(run.proven[0]!)).toEqual(sorted(provenByLive(live.organizations[0]!)));
      }
    }
  });

  it('diffs in place a list whose reads below did not all end (a site that failed to read)', () => {
    const { desired, live } = syntheticModels(4_000);
    const capabilities = capabilitiesOf('seed');
    const sequential = bytes(diff(desired, live, { capabilities }));
    for (const fail of ['Site 0', 'Site 3', 'Site 24']) {
      const run = diffedAsRead(desired, live, capabilities, {
        pageSize: 100,
        shuffled: true,
        steps: 2,
        random: rng(7),
        fail,
      });
      expect(bytes(run.diffs)).toBe(sequential);
      // What the read proves is then worked out again from the live state, whole.
      expect(run.proven[0]).toBeUndefined();
    }
  });

  it('pairs as today a list with duplicates on the same page and across pages', () => {
    const { desired, live } = syntheticModels(4_000);
    const capabilities = capabilitiesOf('seed');
    const org = live.organizations[0]!;
    const teams = org.teams!;
    // Team 5's twin on the last page (after Team 5 is diffed), Team 590's on its own page, Team 300's
    // just before it, and a team no entry names twice.
    const twin = (title: string, i: number) => ({ id: `twin_${i}`, title });
    const withTwins = [
      ...teams.slice(0, 299),
      twin('Team 300', 1),
      ...teams.slice(299, 595),
      twin('Team 590', 2),
      twin('Gone', 3),
      ...teams.slice(595),
      twin('Gone', 4),
      twin('Team 5', 5),
    ];
    const twins = { organizations: [{ ...org, teams: withTwins }] };
    // Their entries list members: a team paired though it has a twin would change its members.
    const members = [{ user: 'a@example.com', role: 'member' }];
    const config = withTeams(
      desired,
      desired.organizations[0]!.teams!.map((t) =>
        ['Team 5', 'Team 300', 'Team 590'].includes(t.title) ? { ...t, members } : t,
      ),
    );
    const sequential = bytes(diff(config, twins, { capabilities }));
    expect(diff(config, twins, { capabilities })[0]!.duplicates).toHaveLength(3);
    for (const [pageSize, steps] of [
      [1_000, 1],
      [100, 1],
      [100, 1_000],
      [3, 2],
    ] as const) {
      const run = diffedAsRead(config, twins, capabilities, {
        pageSize,
        shuffled: true,
        steps,
        random: rng(5),
      });
      expect(bytes(run.diffs), JSON.stringify({ pageSize, steps })).toBe(sequential);
    }
  });

  it("pairs as today an entry whose item comes after its turn with a twin (a hole's duplicate)", () => {
    const { desired, live } = syntheticModels(4_000);
    const capabilities = capabilitiesOf('seed');
    const org = live.organizations[0]!;
    // Team 100 and its twin last: its entry is a hole at its turn (later entries' items came), and
    // the twin comes with its item; no twin comes after its entry was diffed (the work ahead holds).
    const late = org.teams!.find((t) => t.title === 'Team 100')!;
    const teams = [...org.teams!.filter((t) => t !== late), late, { id: 'twin_1', title: 'Team 100' }];
    const twins = { organizations: [{ ...org, teams }] };
    // Its entry lists members: paired though it has a twin, its members would change.
    const members = [{ user: 'a@example.com', role: 'member' }];
    const config = withTeams(
      desired,
      desired.organizations[0]!.teams!.map((t) => (t.title === 'Team 100' ? { ...t, members } : t)),
    );
    const sequential = bytes(diff(config, twins, { capabilities }));
    expect(diff(config, twins, { capabilities })[0]!.duplicates).toHaveLength(1);
    for (const pageSize of [100, 3]) {
      const run = diffedAsRead(config, twins, capabilities, {
        pageSize,
        shuffled: false,
        steps: 1,
        random: rng(5),
      });
      expect(bytes(run.diffs), String(pageSize)).toBe(sequential);
    }
  });

  it('does in place what failed ahead, as if nothing had been done ahead', () => {
    const { desired, live } = syntheticModels(1_000);
    const capabilities = capabilitiesOf('seed');
    const sequential = bytes(diff(desired, live, { capabilities }));
    // eslint-disable-next-line require-yield -- a diff that fails at its first step
    vi.spyOn(siteKind, 'diffSteps').mockImplementation(function* () {
      throw new Error('failed ahead');
    });
    vi.spyOn(siteKind, 'liveReferences').mockImplementationOnce(() => {
      throw new Error('failed ahead');
    });
    const { diffs } = diffedAhead(desired, live, capabilities, ['sites'], () => 3);
    expect(bytes(diffs)).toBe(sequential);
    const org = live.organizations[0]!;
    // With the config, as the plan makes it: a proof without one has nothing to walk ahead.
    const proof = new LiveProof(desired.organizations[0]);
    expect(proof.listArriving('sites', ArrivingList.read(org.sites!))).toBe(true);
    expect(proof.step('sites')).toBe('done');
    expect(proof.finish(org)).toBeUndefined();
  });

  it('plans through makePlan as with nothing ahead: sites whose sections end out of order, teams over pages with twins', async () => {
    // 2,500 teams: three chained pages; Team 5's twin on the last page, Team 2,400's on the same.
    const teams = Array.from({ length: 2_500 }, (_, i) => ({ id: `team_${i}`, title: `Team ${i}` }));
    teams.push({ id: 'twin_5', title: 'Team 5' }, { id: 'twin_2400', title: 'Team 2400' });
    const emu = await withEmulator({ seed: seedOf(12, teams) });
    // Each answer 0–30 ms late: the sites' sections end in another order than the sites'.
    emu.setFaults({ latencyMs: 15, latencyJitterMs: 15, seed: 43 });
    const api = client(emu);
    const random = rng(3);
    // The config's teams in another order, some new, some gone; its sites' sections renamed.
    const titles = shuffle(
      random,
      teams.slice(0, 2_500).map((t) => t.title),
    ).filter(() => random() > 0.05);
    const desired = siteConfig(12, [...titles, 'Team new 1', 'Team new 2']);
    try {
      const { ahead, plain } = await planBothWays(api, desired);
      expect(ahead).toBe(plain);
      const plan = JSON.parse(ahead) as Plan;
      expect(plan.duplicates?.map((d) => d.name).sort()).toEqual(['Team 2400', 'Team 5']);
      expect(plan.changes.filter((c) => c.address.includes('/sites/')).length).toBeGreaterThan(0);
    } finally {
      await api.close();
      await emu.close();
    }
  });

  it("writes the plan's first request before the first step of the work ahead (its setup waits for the write)", async () => {
    const teams = Array.from({ length: 1_200 }, (_, i) => ({ id: `team_${i}`, title: `Team ${i}` }));
    const emu = await withEmulator({ seed: seedOf(3, teams) });
    const api = client(emu);
    const events: string[] = [];
    const written = () => events.push('written');
    diagnostics.subscribe('undici:client:sendHeaders', written);
    const step = DiffAhead.prototype.step;
    vi.spyOn(DiffAhead.prototype, 'step').mockImplementation(function (this: DiffAhead, key: string) {
      events.push('step');
      return step.call(this, key);
    });
    try {
      await makePlan(
        api,
        siteConfig(
          3,
          teams.map((t) => t.title),
        ),
      );
      expect(events.indexOf('step')).toBeGreaterThan(events.indexOf('written'));
      expect(events.indexOf('written')).toBe(0);
    } finally {
      diagnostics.unsubscribe('undici:client:sendHeaders', written);
      await api.close();
      await emu.close();
    }
  });

  it('plans as with nothing ahead when a site fails to read, and runs nothing ahead after', async () => {
    const emu = await withEmulator({ seed: seedOf(6, [{ id: 'team_1', title: 'Team 1' }]) });
    emu.setFaults({ latencyMs: 10, latencyJitterMs: 10, seed: 7 });
    const api = client(emu);
    // The reads below site 3 fail: the organization cannot be read.
    const list = api.list.bind(api);
    vi.spyOn(api, 'list').mockImplementation((l) =>
      JSON.stringify(l).includes('site_3') ? Promise.reject(new Error('site 3 is gone')) : list(l),
    );
    let stepsAfter = 0;
    let planned = false;
    const steps = siteKind.diffSteps!;
    vi.spyOn(siteKind, 'diffSteps').mockImplementation(function* (ctx, d, l, arriving) {
      const inner = steps(ctx, d, l, arriving);
      for (let r = inner.next(); r.done !== true; r = inner.next()) {
        if (planned) stepsAfter += 1;
        yield r.value;
      }
    });
    try {
      const desired = siteConfig(6, ['Team 1']);
      const { ahead, plain } = await planBothWays(api, desired);
      planned = true;
      expect(ahead).toBe(plain);
      expect((JSON.parse(ahead) as Plan).errors.map((e) => e.message).join()).toContain('site 3 is gone');
      for (let i = 0; i < 20; i += 1) await new Promise((resolve) => setImmediate(resolve));
      expect(stepsAfter).toBe(0);
    } finally {
      await api.close();
      await emu.close();
    }
  });

  it('diffs a list read early while a longer chain of pages is still being read', async () => {
    // 2,500 teams: three pages one after the other; the site's list and its sections: two reads.
    const teams = Array.from({ length: 2_500 }, (_, i) => ({ id: `team_${i}`, title: `Team ${i}` }));
    const emu = await withEmulator({
      seed: {
        organizations: [
          {
            id: 'org_a',
            title: 'A',
            teams,
            spaces: [{ id: 'space_1', title: 'Space 1' }],
            sites: [{ id: 'site_1', title: 'Docs', visibility: 'public' }],
          },
        ],
      },
    });
    emu.setFaults({ latencyMs: 40 });
    const api = client(emu);
    const { desired } = syntheticState(teams.map((t) => t.title));
    const seen: string[] = [];
    let reading = true;
    const steps = siteKind.diffSteps!;
    vi.spyOn(siteKind, 'diffSteps').mockImplementation(function* (ctx, d, l, arriving) {
      yield* { [Symbol.iterator]: () => steps(ctx, d, l, arriving) };
      seen.push(reading ? 'while reading' : 'after the reads');
    });
    // No step of the teams' diff ahead may run once the plan is made (it once did, in the
    // background, with the whole teams' diff: nobody took its result).
    let planned = false;
    let teamStepsAfter = 0;
    const teamSteps = teamKind.diffSteps!;
    vi.spyOn(teamKind, 'diffSteps').mockImplementation(function* (ctx, d, l, arriving) {
      const inner = teamSteps(ctx, d, l, arriving);
      for (let r = inner.next(); r.done !== true; r = inner.next()) {
        if (planned) teamStepsAfter += 1;
        yield r.value;
      }
    });
    try {
      const { plan } = await makePlan(api, desired, (p) => {
        reading = p.listsDone < p.listsStarted;
      });
      planned = true;
      expect(plan.errors).toEqual([]);
      expect(seen).toEqual(['while reading']);
      expect(plan.changes.map((c) => c.address)).toEqual(['org_a/sites/Docs']);
      for (let i = 0; i < 20; i += 1) await new Promise((resolve) => setImmediate(resolve));
      expect(teamStepsAfter).toBe(0);
    } finally {
      await api.close();
      await emu.close();
    }
  });
});

/** The plan `makePlan` makes, and the one it makes with nothing diffed ahead (the kinds' `diffSteps` off). */
async function planBothWays(
  api: ApiClient,
  desired: DesiredState,
): Promise<{ ahead: string; plain: string }> {
  const ahead = JSON.stringify((await makePlan(api, desired)).plan);
  const kinds = [siteKind, teamKind] as { diffSteps?: unknown }[];
  const steps = kinds.map((k) => k.diffSteps);
  for (const k of kinds) k.diffSteps = undefined;
  try {
    return { ahead, plain: JSON.stringify((await makePlan(api, desired)).plan) };
  } finally {
    kinds.forEach((k, i) => (k.diffSteps = steps[i]));
  }
}

/** An organization of `sites` sites of one section each, and `teams` teams (the live side). */
function seedOf(sites: number, teams: { id: string; title: string }[]) {
  return {
    organizations: [
      {
        id: 'org_a',
        title: 'A',
        teams,
        spaces: [{ id: 'space_1', title: 'Space 1' }],
        sites: Array.from({ length: sites }, (_, i) => ({
          id: `site_${i}`,
          title: `Site ${i}`,
          sections: [{ title: 'A', path: 'a', siteSpaces: [{ space: 'space_1' }] }],
        })),
      },
    ],
  };
}

/** A config of `sites` sites (each section renamed, one site's visibility changed) and the teams named. */
function siteConfig(sites: number, teams: string[]): DesiredState {
  return {
    organizations: [
      {
        id: 'org_a',
        policy: { prune: true },
        teams: teams.map((title) => ({ title })),
        sites: Array.from({ length: sites }, (_, i) => ({
          title: `Site ${i}`,
          ...(i === 2 ? { visibility: 'unlisted' } : {}),
          sections: [{ title: `A ${i}`, path: 'a', spaces: [{ space: 'space_1' }] }],
        })),
      },
    ],
  } as unknown as DesiredState;
}

/** A config of the teams named and one site whose visibility changes. */
function syntheticState(titles: string[]): { desired: DesiredState } {
  return {
    desired: {
      organizations: [
        {
          id: 'org_a',
          policy: { prune: false },
          teams: titles.map((title) => ({ title })),
          sites: [{ title: 'Docs', visibility: 'unlisted' }],
        },
      ],
    } as unknown as DesiredState,
  };
}
