import type { DesiredOrganization, DesiredState, LiveOrganization, LiveState } from '../model/index.js';
import type { DiffContext } from './context.js';
import { diffCustomFields, diffSpaces } from './custom-fields.js';
import { DraftSet, type OrgDiff } from './draft.js';
import { diffSites } from './sites.js';
import { diffTeams } from './teams.js';

/** Pair desired and live resources of one organization and compute the changes (pure). */
export function diffOrganization(desired: DesiredOrganization, live: LiveOrganization): OrgDiff {
  const ctx: DiffContext = {
    org: desired.id,
    drafts: new DraftSet(),
    unmanaged: [],
    problems: [],
    prune: desired.policy.prune,
    managedLive: { count: 0 },
    customFieldKeys: new Map(),
  };
  if (desired.customFields) diffCustomFields(ctx, desired.customFields, live.customFields ?? []);
  if (desired.spaces) diffSpaces(ctx, desired.spaces, live.spaces ?? []);
  if (desired.teams) diffTeams(ctx, desired.teams, live.teams ?? []);
  if (desired.sites) diffSites(ctx, desired.sites, live.sites ?? []);
  return {
    organization: desired.id,
    drafts: ctx.drafts.drafts,
    unmanaged: ctx.unmanaged,
    problems: ctx.problems,
    policy: desired.policy,
    managedLiveCount: ctx.managedLive.count,
  };
}

/** Diff every organization of the desired state against its live state. */
export function diff(desired: DesiredState, live: LiveState): OrgDiff[] {
  return desired.organizations.map((org) =>
    diffOrganization(org, live.organizations.find((l) => l.id === org.id) ?? { id: org.id }),
  );
}
