import type { ApiCapabilities } from '../model/capabilities.js';
import { DEFAULT_MIN_ADMINS } from '../model/index.js';
import { problem, type DiffContext } from '../diff/context.js';
import { DEFAULT_BROKEN_LINKS } from '../diff/site-paths.js';
import { DraftSet, liveRef, type Draft, type OrgDiff as AnyOrgDiff } from '../diff/draft.js';
import {
  absentHere,
  anyListKinds,
  anyObjectKinds,
  anySiteFacets,
  anySpaceFacets,
  collectionKind,
  listIn,
  valueIn,
} from '../kinds/registry.js';
import type { AnyListKind } from '../kinds/shapes.js';
import type { ChangeOp, ResourceKind } from './change.js';
import type { DesiredOrganization, DesiredState, LiveOrganization, LiveState } from './state.js';

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
): OrgDiff {
  const ctx: DiffContext = {
    org: desired.id,
    drafts: new DraftSet(),
    unmanaged: [],
    problems: [],
    prune: desired.policy.prune,
    pruneMembers: desired.policy.pruneMembers ?? false,
    minAdmins: desired.policy.minAdmins ?? DEFAULT_MIN_ADMINS,
    managedLive: { count: 0 },
    dependedOn: new Map(),
    self: live.self ?? null,
    ...(live.members
      ? {
          userIds: new Map(
            live.members.flatMap((m) => (m.email ? [[m.email.toLowerCase(), m.userId] as const] : [])),
          ),
        }
      : {}),
    siteRefs: new Map((live.sites ?? []).map((s) => [s.title, { ref: liveRef(s.id) }])),
    teamRefs: new Map((live.teams ?? []).map((t) => [t.title, { ref: liveRef(t.id) }])),
    caps: options.capabilities,
    warnings: [],
    duplicates: [],
    brokenLinks: desired.policy.brokenLinks ?? DEFAULT_BROKEN_LINKS,
    links: { planned: [], broken: [] },
    ...(options.targets ? { targets: options.targets } : {}),
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
  diffListKinds(ctx, desired, live, 'first');
  diffSpaceFacets(ctx, desired, live, undefined);
  diffListKinds(ctx, desired, live, 'before-settings');
  for (const kind of anyObjectKinds) {
    const wanted = valueIn(desired, kind.key);
    const found = valueIn(live, kind.key);
    if (wanted !== undefined && found !== undefined) kind.diff(ctx, wanted, found);
  }
  diffListKinds(ctx, desired, live, 'after-settings');
  collectionKind.diff(ctx, desired, live);
  diffListKinds(ctx, desired, live, undefined);
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
) {
  for (const kind of anyListKinds) {
    const wanted = listIn(desired, kind.key);
    if (wanted && kind.diffPhase === phase) kind.diff(ctx, wanted, listIn(live, kind.key) ?? []);
  }
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

/** Diff every organization of the desired state against its live state. */
export function diff(desired: DesiredState, live: LiveState, options: DiffOptions): OrgDiff[] {
  return desired.organizations.map((org) =>
    diffOrganization(
      org,
      live.organizations.find((l) => l.id === org.id) ?? { id: org.id },
      desired.targets ? { ...options, targets: desired.targets } : options,
    ),
  );
}
