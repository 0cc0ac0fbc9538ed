import { afterEach, describe, expect, it, vi } from 'vitest';
import { capabilitiesOf } from '../api/capabilities.js';
import { readLive } from '../live/read.js';
import { buildPlan } from '../plan/build.js';
import { makePlan } from './plan-run.js';
import { listIn } from '../kinds/registry.js';
import { siteKind } from '../kinds/site.js';
import { teamKind } from '../kinds/team.js';
import type { ApiCapabilities } from '../model/capabilities.js';
import { syntheticModels } from '../../bench/synthetic.js';
import { client, withEmulator } from '../../test/helpers/emulator.js';
import { randomDesired, randomLiveSeed, rng } from '../../test/helpers/random-state.js';
import { diff, diffAheadOf } from '../reconcile/diff.js';
import { LiveProof, provenByLive, referencesToCheck } from '../plan/references.js';
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
      if (!items || !one.listRead(key, items)) continue;
      started += 1;
      for (let i = 0; i < steps(key) && one.step(key); i += 1);
    }
  }
  return { diffs: diff(desired, live, { capabilities }, ahead), ahead: started };
}

/**
 * What the live read proves with the lists in `order` proven early (`steps` steps each when read),
 * against `provenByLive`: the same names, and the same references left to check.
 */
function expectSameProof(
  desired: DesiredState,
  live: LiveState,
  order: readonly string[],
  steps: number,
): void {
  for (const org of live.organizations) {
    const proof = new LiveProof();
    for (const key of order) {
      const items = listIn(org, key as 'sites');
      if (items && proof.listRead(key, items)) for (let i = 0; i < steps && proof.step(key); i += 1);
    }
    const early = proof.finish(org)!;
    const whole = provenByLive(org);
    const sorted = (m: Map<string, Set<string>>) => [...m].map(([k, v]) => [k, [...v].sort()]).sort();
    expect(sorted(early)).toEqual(sorted(whole));
    const config = desired.organizations.find((o) => o.id === org.id)!;
    expect(referencesToCheck(config, org, early)).toEqual(referencesToCheck(config, org));
  }
}

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
        expectSameProof(desired, live, [...order, 'members', 'customFields'], steps);
      } finally {
        await api.close();
        await emu.close();
      }
    }
    // The random configs give sites and teams often enough for the comparison to mean something.
    expect(ahead).toBeGreaterThan(4);
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
    const proof = new LiveProof();
    expect(proof.listRead('sites', org.sites!)).toBe(true);
    expect(proof.step('sites')).toBe(false);
    expect(proof.finish(org)).toBeUndefined();
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
    vi.spyOn(siteKind, 'diffSteps').mockImplementation(function* (ctx, d, l) {
      const inner = steps(ctx, d, l);
      while (inner.next().done !== true) yield;
      seen.push(reading ? 'while reading' : 'after the reads');
    });
    // The teams, read last, are diffed in place: no step of their diff ahead may run once the plan
    // is made (it did, in the background, with the whole teams' diff: nobody took its result).
    let planned = false;
    let teamStepsAfter = 0;
    const teamSteps = teamKind.diffSteps!;
    vi.spyOn(teamKind, 'diffSteps').mockImplementation(function* (ctx, d, l) {
      const inner = teamSteps(ctx, d, l);
      while (inner.next().done !== true) {
        if (planned) teamStepsAfter += 1;
        yield;
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
