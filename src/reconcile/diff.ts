import type { ApiCapabilities } from '../model/capabilities.js';
import { DEFAULT_MIN_ADMINS } from '../model/index.js';
import { countLive, problem, type DiffContext } from '../diff/context.js';
import { DEFAULT_BROKEN_LINKS } from '../diff/site-paths.js';
import { DraftSet, type Draft, type OrgDiff as AnyOrgDiff } from '../diff/draft.js';
import { LiveTitleRefs } from '../diff/title-refs.js';
import {
  absentHere,
  anyListKinds,
  anyObjectKinds,
  anySiteFacets,
  anySpaceFacets,
  collectionKind,
  listIn,
  valueIn,
  diffsAhead,
} from '../kinds/registry.js';
import type { AnyListKind } from '../kinds/shapes.js';
import type { ChangeOp, ResourceKind } from './change.js';
import type { DesiredOrganization, DesiredState, LiveOrganization, LiveState } from './state.js';
import type { ArrivingList } from '../model/arriving.js';
import { advance, type AheadStep } from '../model/steps.js';

/** The diff of one organization: its drafts name the registry's kinds and operations. */
export type OrgDiff = AnyOrgDiff<Draft<ResourceKind, ChangeOp>>;

/** Pair desired and live resources of one organization and compute the changes (pure). */
export type DiffOptions = {
  capabilities: ApiCapabilities;
  /** A partial plan's `--target` patterns (decision 33). */
  targets?: readonly string[];
};

export function diffOrganization(
  desired: DesiredOrganization,
  live: LiveOrganization,
  options: DiffOptions,
  ahead?: DiffAhead,
): OrgDiff {
  const ctx: DiffContext = {
    ...baseContext(desired, options),
    self: live.self ?? null,
    ...(live.members
      ? {
          userIds: new Map(
            live.members.flatMap((m) => (m.email ? [[m.email.toLowerCase(), m.userId] as const] : [])),
          ),
        }
      : {}),
    // Made when first asked (most plans ask none: 15,000 live teams after the reads, issue 33).
    siteRefs: new LiveTitleRefs(live.sites ?? []),
    teamRefs: new LiveTitleRefs(live.teams ?? []),
  };
  // Kinds the API does not have cannot be managed (each reason once).
  const absent = new Set<string>();
  for (const kind of anyListKinds)
    if (kind.absent && absentHere(kind, ctx.caps) && listIn(desired, kind.key))
      absent.add(kind.absent(ctx.caps));
  for (const facet of anySpaceFacets)
    if (absentHere(facet, ctx.caps) && desired.spaces?.some((s) => valueIn(s, facet.key)))
      absent.add(facet.absent(ctx.caps));
  const grants = collectionKind.grants;
  if (absentHere(grants, ctx.caps) && desired.collections?.some((c) => c.access !== undefined))
    absent.add(grants.absent(ctx.caps));
  for (const facet of anySiteFacets)
    if (
      facet.absent &&
      absentHere(facet, ctx.caps) &&
      desired.sites?.some((s) => valueIn(s, facet.key) !== undefined)
    )
      absent.add(facet.absent(ctx.caps));
  for (const reason of absent) problem(ctx, reason, 'unsupported-by-api');
  if (live.readError !== undefined) {
    problem(ctx, `cannot read the live state of ${desired.id}: ${live.readError}`, 'live-read-failed');
    return {
      organization: desired.id,
      drafts: [],
      unmanaged: [],
      problems: ctx.problems,
      policy: desired.policy,
      managedLiveCount: 0,
      warnings: [],
    };
  }
  diffListKinds(ctx, desired, live, 'first', ahead);
  diffSpaceFacets(ctx, desired, live, undefined);
  diffListKinds(ctx, desired, live, 'before-settings', ahead);
  for (const kind of anyObjectKinds) {
    const wanted = valueIn(desired, kind.key);
    const found = valueIn(live, kind.key);
    if (wanted !== undefined && found !== undefined) kind.diff(ctx, wanted, found);
  }
  diffListKinds(ctx, desired, live, 'after-settings', ahead);
  collectionKind.diff(ctx, desired, live);
  diffListKinds(ctx, desired, live, undefined, ahead);
  diffSpaceFacets(ctx, desired, live, 'last');
  return {
    organization: desired.id,
    // Each kind adds drafts of its own name and operations only (src/diff/builder.ts types them).
    drafts: ctx.drafts.drafts as OrgDiff['drafts'],
    unmanaged: ctx.unmanaged,
    problems: ctx.problems,
    policy: desired.policy,
    managedLiveCount: ctx.managedLive.count,
    ...(ctx.managedLive.byKind ? { managedLiveByKind: ctx.managedLive.byKind } : {}),
    warnings: ctx.warnings,
    duplicates: ctx.duplicates,
    ...(ctx.links.planned.length > 0 ? { addedRedirects: ctx.links.planned } : {}),
    ...(ctx.links.broken.length > 0 ? { brokenLinks: ctx.links.broken } : {}),
    ...(ctx.admins ? { admins: { ...ctx.admins, min: ctx.minAdmins } } : {}),
  };
}

/** The list kinds of one phase (`diffPhase`): the plan's order follows the order of the diff. */
function diffListKinds(
  ctx: DiffContext,
  desired: DesiredOrganization,
  live: LiveOrganization,
  phase: AnyListKind['diffPhase'],
  ahead: DiffAhead | undefined,
) {
  for (const kind of anyListKinds) {
    const wanted = listIn(desired, kind.key);
    if (!wanted || kind.diffPhase !== phase) continue;
    const found = listIn(live, kind.key) ?? [];
    const done = ahead?.take(kind.key, found);
    if (done) splice(ctx, done);
    else kind.diff(ctx, wanted, found);
  }
}

/** What every kind's diff shares that comes from the config and the options, not the live state. */
function baseContext(
  desired: DesiredOrganization,
  options: DiffOptions,
): Omit<DiffContext, 'self' | 'userIds' | 'siteRefs' | 'teamRefs'> {
  return {
    org: desired.id,
    drafts: new DraftSet(),
    unmanaged: [],
    problems: [],
    prune: desired.policy.prune,
    pruneMembers: desired.policy.pruneMembers ?? false,
    minAdmins: desired.policy.minAdmins ?? DEFAULT_MIN_ADMINS,
    // `byKind` there from the start: added by the first `countLive`, it changed the object's shape
    // under code optimized for the first (wrong map, issue 33).
    managedLive: { count: 0, byKind: undefined },
    dependedOn: new Map(),
    caps: options.capabilities,
    warnings: [],
    duplicates: [],
    brokenLinks: desired.policy.brokenLinks ?? DEFAULT_BROKEN_LINKS,
    links: { planned: [], broken: [] },
    ...(options.targets ? { targets: options.targets } : {}),
  };
}

/**
 * The kinds of one organization diffed ahead (decision 43, sixth and eighth passes): a kind with
 * `diffSteps` (its diff reads nothing other kinds' diffs write) is diffed in a context of its own,
 * a step at a time, from when its list begins to be read (`listArriving`: its steps wait for the
 * pages and the items' reads below they need) while other lists are still being read;
 * `diffOrganization` splices what it wrote in at the kind's place in the diff's order, so the diff
 * is the same as diffing it there: the same drafts in the same order, and the same warnings,
 * problems, counts and refs. Pure: the caller decides when each step runs (`step`), and `take`
 * finishes a kind's diff.
 */
export class DiffAhead {
  private readonly kinds = new Map<
    string,
    {
      list: ArrivingList;
      ctx: DiffContext;
      steps: Iterator<unknown, void, undefined>;
      started: boolean;
      failed: boolean;
    }
  >();

  constructor(
    private readonly desired: DesiredOrganization,
    private readonly options: DiffOptions,
  ) {}

  /**
   * A list kind's live list begins to be read (`list` fills as it is): whether it can be diffed
   * ahead (then `step` runs it, waiting for what it needs of the list).
   */
  listArriving(key: string, list: ArrivingList): boolean {
    const kind = anyListKinds.find((k) => k.key === key);
    const wanted = listIn(this.desired, key);
    if (!kind || !wanted || !diffsAhead(kind, wanted) || this.kinds.has(key)) return false;
    // The context holds nothing read live: such a kind reads neither `self`, `userIds` nor the refs.
    const ctx: DiffContext = {
      ...baseContext(this.desired, this.options),
      self: null,
      siteRefs: new LiveTitleRefs([]),
      teamRefs: new LiveTitleRefs([]),
    };
    const steps = kind.diffSteps!(ctx, wanted, list.paged as never[], list as never);
    this.kinds.set(key, { list, ctx, steps, started: false, failed: false });
    return true;
  }

  /**
   * One step of `key`'s diff: `more`, `waiting` (for more of its list: step it again once more is
   * read), or `done` (also when it failed: it is then diffed in place).
   */
  step(key: string): AheadStep {
    const k = this.kinds.get(key);
    if (!k || k.failed) return 'done';
    k.started = true;
    const r = advance(k.steps);
    // A failed diff is done again in its place, where the same error is thrown in the same order.
    k.failed = r === 'failed';
    return r === 'failed' ? 'done' : r;
  }

  /**
   * `key`'s diff context, finished, if it was begun ahead from the very list the live state holds
   * (`live`); a kind not begun is diffed in place, which costs no splice. Either way the kind is
   * done with here: its steps still queued do nothing.
   */
  take(key: string, live: readonly unknown[]): DiffContext | undefined {
    const k = this.kinds.get(key);
    // Taken or not, nothing of it runs after this: a step still queued finds nothing to do.
    this.kinds.delete(key);
    if (!k?.started || k.failed || k.list.items !== live) return undefined;
    let r: ReturnType<typeof advance>;
    do r = advance(k.steps);
    while (r === 'more');
    // The list is read whole: a step that still waits (for nothing more to come) counts as failed.
    return r === 'done' ? k.ctx : undefined;
  }
}

/** What a kind diffed ahead wrote, in order, as if it had written it into `ctx` at this point. */
function splice(ctx: DiffContext, done: DiffContext): void {
  ctx.drafts.absorb(done.drafts);
  // Pushed one by one: a spread of a long list as arguments can overflow the stack.
  for (const x of done.unmanaged) ctx.unmanaged.push(x);
  for (const x of done.problems) ctx.problems.push(x);
  for (const x of done.warnings) ctx.warnings.push(x);
  for (const x of done.duplicates) ctx.duplicates.push(x);
  for (const x of done.links.planned) ctx.links.planned.push(x);
  for (const x of done.links.broken) ctx.links.broken.push(x);
  for (const [kind, n] of Object.entries(done.managedLive.byKind ?? {})) countLive(ctx, kind, n);
  // A key set again keeps its place in a map, a new one goes last: as the kind's own sets would.
  ctx.siteRefs.adopt(done.siteRefs);
  ctx.teamRefs.adopt(done.teamRefs);
  for (const [k, v] of done.dependedOn) ctx.dependedOn.set(k, v);
  if (done.admins) ctx.admins = done.admins;
}

/** The facets of existing spaces diffed in this phase (custom field values; grants, last). */
function diffSpaceFacets(
  ctx: DiffContext,
  desired: DesiredOrganization,
  live: LiveOrganization,
  phase: 'last' | undefined,
): void {
  for (const facet of anySpaceFacets) {
    if (facet.diffPhase !== phase) continue;
    const wanted = (desired.spaces ?? []).flatMap((s) => {
      const value = valueIn(s, facet.key);
      return value === undefined ? [] : [{ id: s.id, value }];
    });
    const found = new Map((live.spaces ?? []).map((s) => [s.id, valueIn(s, facet.key)]));
    if (wanted.length > 0) facet.diff(ctx, wanted, found);
  }
}

/**
 * Diff every organization of the desired state against its live state; `ahead` holds what was
 * diffed while the lists were read (`diffAheadOf`), the same diff.
 */
export function diff(
  desired: DesiredState,
  live: LiveState,
  options: DiffOptions,
  ahead?: ReadonlyMap<string, DiffAhead>,
): OrgDiff[] {
  return desired.organizations.map((org) =>
    diffOrganization(
      org,
      live.organizations.find((l) => l.id === org.id) ?? { id: org.id },
      optionsOf(desired, options),
      ahead?.get(org.id),
    ),
  );
}

/** What `diff` diffs ahead for each organization, as its lists are read (see `DiffAhead`). */
export function diffAheadOf(desired: DesiredState, options: DiffOptions): Map<string, DiffAhead> {
  return new Map(
    desired.organizations.map((org) => [org.id, new DiffAhead(org, optionsOf(desired, options))]),
  );
}

const optionsOf = (desired: DesiredState, options: DiffOptions): DiffOptions =>
  desired.targets ? { ...options, targets: desired.targets } : options;
