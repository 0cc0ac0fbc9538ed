import type { ApiCapabilities } from '../model/capabilities.js';
import type { DesiredOrganization, DesiredState, LiveOrganization, LiveState } from '../model/index.js';
import { diffCollections } from './collections.js';
import { problem, type DiffContext } from './context.js';
import { diffCustomFields, diffSpaces } from './custom-fields.js';
import { DraftSet, liveRef, type OrgDiff } from './draft.js';
import { anyListKinds, listIn } from '../kinds/registry.js';
import { diffMembers, diffSettings } from './settings.js';
import { diffSites } from './sites.js';
import { diffTeams } from './teams.js';

/** Pair desired and live resources of one organization and compute the changes (pure). */
export type DiffOptions = { capabilities: ApiCapabilities };

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
    managedLive: { count: 0 },
    customFieldKeys: new Map(),
    siteRefs: new Map((live.sites ?? []).map((s) => [s.title, { ref: liveRef(s.id) }])),
    teamRefs: new Map((live.teams ?? []).map((t) => [t.title, { ref: liveRef(t.id) }])),
    caps: options.capabilities,
    warnings: [],
    duplicates: [],
  };
  if (
    ctx.caps.absent.includes('custom-field') &&
    (desired.customFields || desired.spaces?.some((s) => s.customFields))
  )
    problem(
      ctx,
      `custom fields are not part of the current API (--api-flavor current); remove customFields or use ${ctx.caps.otherwise}`,
    );
  if (live.readError !== undefined) {
    problem(ctx, `cannot read the live state of ${desired.id}: ${live.readError}`);
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
  for (const kind of anyListKinds)
    if (kind.absent && ctx.caps.absent.includes(kind.kind) && listIn(desired, kind.key))
      problem(ctx, kind.absent(ctx.caps));
  if (desired.customFields) diffCustomFields(ctx, desired.customFields, live.customFields ?? []);
  if (desired.spaces) diffSpaces(ctx, desired.spaces, live.spaces ?? []);
  if (desired.teams) diffTeams(ctx, desired.teams, live.teams ?? []);
  if (desired.sites) diffSites(ctx, desired.sites, live.sites ?? []);
  if (desired.settings && live.settings) diffSettings(ctx, desired.settings, live.settings);
  if (desired.members) diffMembers(ctx, desired.members, live.members ?? [], live.self ?? null);
  if (
    desired.collections ||
    desired.spaces?.some(
      (s) =>
        s.title !== undefined ||
        s.parent !== undefined ||
        s.emoji !== undefined ||
        s.editMode !== undefined ||
        s.defaultLevel !== undefined,
    )
  )
    diffCollections(
      ctx,
      desired.collections,
      live.collections ?? [],
      desired.spaces ?? [],
      live.spaces ?? [],
    );
  for (const kind of anyListKinds) {
    const wanted = listIn(desired, kind.key);
    if (wanted) kind.diff(ctx, wanted, listIn(live, kind.key) ?? []);
  }
  return {
    organization: desired.id,
    drafts: ctx.drafts.drafts,
    unmanaged: ctx.unmanaged,
    problems: ctx.problems,
    policy: desired.policy,
    managedLiveCount: ctx.managedLive.count,
    warnings: ctx.warnings,
    duplicates: ctx.duplicates,
  };
}

/** Diff every organization of the desired state against its live state. */
export function diff(desired: DesiredState, live: LiveState, options: DiffOptions): OrgDiff[] {
  return desired.organizations.map((org) =>
    diffOrganization(org, live.organizations.find((l) => l.id === org.id) ?? { id: org.id }, options),
  );
}
