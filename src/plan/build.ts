import { relationKinds } from '../kinds/registry.js';
import type { OrgDiff } from '../reconcile/diff.js';
import type { Change } from '../reconcile/index.js';
import { changesByOrganization } from './by-organization.js';
import { resourceSummary } from './format-value.js';
import { guardVerdict } from './safety.js';
import { changesOf } from './change-ids.js';
import { dependencyOrder, dependsBackward, emissionOrder, indexByKey, positionsOf } from './change-order.js';
import { checksumOf } from './checksum.js';
import { tally } from './tally.js';
import {
  applyIgnore,
  limitChecks,
  matchesTarget,
  protectedDeletes,
  selectTargets,
  type IgnoredDifference,
} from './controls.js';
import type { Plan, PlanGuardFacts, PlanProblem, PlanSummary } from './types.js';

/**
 * Order the changes of every organization by their dependencies (Kahn's algorithm; ties broken
 * by the order the diff emitted them, so the same inputs always give the same plan), number
 * them c1..cN, and compute the summary and checksum.
 */
export type BuildOptions = {
  /** `--target` patterns: a partial plan of the matching resources and what they depend on. */
  targets?: readonly string[];
};

export function buildPlan(input: OrgDiff[], options: BuildOptions = {}): Plan {
  const errors: PlanProblem[] = [];
  const { diffs, ignored } = applyControls(input, options.targets);
  const drafts = diffs.flatMap((d) => {
    if (d.problems.length === 0) return d.drafts;
    errors.push(...d.problems);
    return [];
  });
  // Plain loops and arrays indexed by emission order (issue 33: a plan of 17,000 changes).
  // Each loop in a function of its own: run once, each was compiled on the spot (OSR), and each
  // such compile was of the whole of `buildPlan` (four compiles, issue 33).
  const count = drafts.length;
  const index = indexByKey(drafts);
  const { order, indegree } = dependsBackward(drafts, index)
    ? emissionOrder(count)
    : dependencyOrder(drafts, index);
  if (order.length !== count) {
    const stuck = drafts.filter((_, i) => indegree[i]! > 0).map((d) => d.address);
    errors.push({
      organization: '*',
      code: 'dependency-cycle',
      message: `dependency cycle between changes: ${stuck.slice(0, 5).join(', ')}`,
    });
    return finish(diffs, [], errors, ignored, options.targets);
  }
  // A draft's place in the plan (by emission index), and its id.
  const position = positionsOf(order);
  const idOf = (key: string): string | undefined => {
    const i = index.get(key);
    return i === undefined ? undefined : `c${position[i]! + 1}`;
  };
  return finish(diffs, changesOf(drafts, order, index, position, idOf), errors, ignored, options.targets);
}

/** An organization's diff under the controls (a partial plan may add a problem of its own). */
type ControlledDiff = Omit<OrgDiff, 'problems'> & { problems: PlanProblem[] };

/**
 * Each organization's drafts under its ignore rules, then (a partial plan) only the targeted ones
 * and what they depend on; its unmanaged resources likewise only those targeted.
 */
function applyControls(
  diffs: OrgDiff[],
  targets: readonly string[] | undefined,
): { diffs: ControlledDiff[]; ignored: IgnoredDifference[] } {
  const ignored: IgnoredDifference[] = [];
  const matched = new Set<string>();
  const out = diffs.map((d): ControlledDiff => {
    if (d.problems.length > 0) return d;
    const kept = applyIgnore(d.organization, d.drafts, d.policy.ignore ?? []);
    const warnings = [...(d.warnings ?? []), ...kept.warnings];
    if (!targets) {
      ignored.push(...kept.ignored);
      return { ...d, drafts: kept.drafts, warnings };
    }
    const addresses = [...kept.drafts, ...kept.ignored, ...d.unmanaged].map((x) => x.address);
    for (const t of targets) if (addresses.some((a) => matchesTarget([t], a))) matched.add(t);
    const chosen = selectTargets(d.organization, kept.drafts, targets);
    ignored.push(...kept.ignored.filter((i) => matchesTarget(targets, i.address)));
    return {
      ...d,
      warnings,
      drafts: chosen.drafts,
      problems: chosen.problems,
      unmanaged: d.unmanaged.filter((u) => matchesTarget(targets, u.address)),
    };
  });
  const first = out.find((d) => d.problems.length === 0);
  for (const t of targets ?? [])
    if (first && !matched.has(t))
      first.warnings = [
        ...(first.warnings ?? []),
        {
          organization: first.organization,
          message: `--target ${t} matches no planned change: nothing to do there, or not an address (docsync plan without --target lists them)`,
        },
      ];
  return { diffs: out, ignored };
}

/** What the guards judge of one organization: its counts, thresholds, protected deletions, links. */
function guardFacts(d: ControlledDiff, mine: readonly Change[]): PlanGuardFacts {
  const { counts, creates } = tally(mine);
  const population = { all: d.managedLiveCount, byKind: d.managedLiveByKind ?? {} };
  const ratio = d.policy.deletes !== undefined || d.policy.updates !== undefined;
  const prot =
    (d.policy.protect?.length ?? 0) === 0
      ? []
      : protectedDeletes(
          d.policy,
          mine.filter((c) => c.action === 'delete' && !relationKinds.has(c.kind)),
        );
  return {
    organization: d.organization,
    deletes: counts.deletes,
    creates,
    maxDeletes: d.policy.maxDeletes,
    managedLive: d.managedLiveCount,
    ...(d.admins ? { admins: d.admins } : {}),
    ...(ratio ? { limits: limitChecks(d.policy, counts, population) } : {}),
    ...(prot.length > 0 ? { protected: prot } : {}),
    ...(d.brokenLinks && d.brokenLinks.length > 0 ? { brokenLinks: d.brokenLinks } : {}),
  };
}

function finish(
  diffs: ControlledDiff[],
  changes: Change[],
  errors: PlanProblem[],
  ignored: IgnoredDifference[],
  targets: readonly string[] | undefined,
): Plan {
  let checksum: string | undefined;
  // Resources, counted as every other place counts them (text, markdown, apply, daemon, history).
  const summary: PlanSummary = resourceSummary(changes);
  const mine = changesByOrganization(
    changes,
    diffs.map((d) => d.organization),
  );
  const guards = diffs.map((d) => guardFacts(d, mine(d.organization)));
  const redirects = diffs.flatMap((d) =>
    d.problems.length > 0
      ? []
      : (d.addedRedirects ?? []).map((r) => ({ organization: d.organization, ...r })),
  );
  return {
    formatVersion: 1,
    organizations: diffs.map((d) => d.organization),
    changes,
    summary,
    unmanaged: diffs.flatMap((d) => d.unmanaged),
    errors,
    warnings: diffs.flatMap((d) => d.warnings ?? []),
    duplicates: diffs.flatMap((d) => d.duplicates ?? []),
    guards,
    refusals: guardVerdict(guards),
    ...(ignored.length > 0 ? { ignored } : {}),
    ...(targets ? { partial: { targets: [...targets] } } : {}),
    ...(redirects.length > 0 ? { redirects } : {}),
    // Hashed when first read (the JSON plan, a saved plan, the daemon's runs, an info log line), not
    // by every plan: a text plan of 17,000 changes would serialize 4 MB only to hash it (issue 33).
    // The changes are never written after this point, so the value is the one computed here.
    get checksum() {
      return (checksum ??= checksumOf(changes));
    },
  };
}

/**
 * `plan` with `extra`'s fields set, in the key order `{ ...plan, ...extra }` gives, without reading
 * the plan's checksum: a spread would hash it (a getter is read by a spread), see `finish`.
 */
export function extendPlan(plan: Plan, extra: Partial<Plan>): Plan {
  return Object.defineProperties(
    {},
    {
      ...Object.getOwnPropertyDescriptors(plan),
      ...Object.getOwnPropertyDescriptors(extra),
    },
  ) as Plan;
}
