import type { LimitCheck } from './controls.js';
import type { Plan, PlanGuardFacts, SafetyRefusal } from './types.js';
import type { BrokenLinkFact } from '../diff/site-paths.js';

/**
 * The verdict of every guard on the facts of a plan, before any override: more deletions than an
 * organization's `policy.maxDeletes`, every managed resource deleted while nothing is created (an
 * emptied config), fewer admins left than `policy.minAdmins`. One function: `plan` shows it,
 * `apply` and the daemon refuse by it.
 */
export function guardVerdict(guards: readonly PlanGuardFacts[]): SafetyRefusal[] {
  const refusals: SafetyRefusal[] = [];
  for (const g of guards) {
    for (const p of g.protected ?? [])
      refusals.push({
        organization: g.organization,
        guard: 'protect',
        code: 'protected-resource',
        message: `${g.organization}: the plan deletes ${p.address}, which ${p.rule} protects (remove the rule to allow it)`,
        override: null,
      });
    const tooMany = (g.limits ?? [])
      .filter((l) => l.counted > 0 && l.counted > l.limit)
      .map((l) => limitRefusal(g, l));
    refusals.push(...tooMany);
    const deletesRefused = g.limits
      ? tooMany.some((r) => r.guard === 'maxDeletes')
      : g.deletes > 0 && g.deletes > g.maxDeletes;
    if (!g.limits && deletesRefused)
      refusals.push({
        organization: g.organization,
        guard: 'maxDeletes',
        code: 'too-many-deletes',
        message: `${g.organization}: the plan deletes ${g.deletes} ${g.deletes === 1 ? 'resource' : 'resources'}, more than policy.maxDeletes (${g.maxDeletes})`,
        override: `--allow-deletes ${g.deletes}`,
        allowDeletes: g.deletes,
      });
    else if (
      !deletesRefused &&
      g.deletes > 0 &&
      g.managedLive > 0 &&
      g.deletes >= g.managedLive &&
      g.creates === 0
    )
      refusals.push({
        organization: g.organization,
        guard: 'empty-config',
        code: 'deletes-everything',
        message: `${g.organization}: the plan deletes every managed resource (${g.deletes}) and creates nothing`,
        override: `--allow-deletes ${g.deletes}`,
        allowDeletes: g.deletes,
      });
    // Published paths the plan takes away with nothing to redirect them (decision 36).
    for (const b of g.brokenLinks ?? [])
      refusals.push({
        organization: g.organization,
        guard: 'brokenLinks',
        code: 'broken-links',
        message: brokenLinkMessage(g.organization, b),
        override: null,
      });
    // Only a plan that takes admins away is judged: an organization already below the floor is not
    // blocked from every other change.
    if (g.admins && g.admins.after < g.admins.min && g.admins.after < g.admins.before)
      refusals.push({
        organization: g.organization,
        guard: 'minAdmins',
        code: 'too-few-admins',
        message: `${g.organization}: the plan leaves ${g.admins.after} admin(s), fewer than policy.minAdmins (${g.admins.min})`,
        override: null,
      });
  }
  return refusals;
}

/**
 * A broken link's refusal, naming the setting that refused it: the entry's own `brokenLinks`
 * (located, else by the entry's address), or `policy.brokenLinks`; and how to lift it.
 */
function brokenLinkMessage(organization: string, b: BrokenLinkFact): string {
  const what = `${organization}: the plan breaks the published URL ${b.path} of site "${b.site}" (${b.what}: ${b.reason})`;
  const s = b.setting;
  if (!s)
    return `${what}; declare a redirect for it (sites[].redirects), set the site's redirectFallback, or policy.brokenLinks: allow`;
  const where = s.at ? `at ${s.at.file}:${s.at.line}:${s.at.column} (${s.address})` : `of ${s.address}`;
  return `${what}; brokenLinks: refuse ${where} refuses it: declare a redirect for it (sites[].redirects), or set that entry's brokenLinks to redirect or allow`;
}

/** A threshold exceeded: "deletes 3 team resources, more than policy.maxDeletes.team (2)". */
function limitRefusal(g: PlanGuardFacts, l: LimitCheck): SafetyRefusal {
  const deletes = l.guard === 'maxDeletes';
  const what = `${l.counted} ${l.scope === 'all' ? '' : `${l.scope} `}${l.counted === 1 ? 'resource' : 'resources'}`;
  const flag = deletes ? '--allow-deletes' : '--allow-updates';
  return {
    organization: g.organization,
    guard: l.guard,
    code: deletes ? 'too-many-deletes' : 'too-many-updates',
    message: `${g.organization}: the plan ${deletes ? 'deletes' : 'updates'} ${what}, more than ${l.rule}`,
    override: `${flag} ${l.counted}`,
    ...(deletes ? { allowDeletes: l.counted } : { allowUpdates: l.counted }),
  };
}

/** The refusals that still hold with `--allow-deletes allowDeletes` and `--allow-updates allowUpdates`. */
export function checkSafety(plan: Pick<Plan, 'guards'>, allowDeletes = 0, allowUpdates = 0): SafetyRefusal[] {
  return guardVerdict(plan.guards).filter(
    (r) =>
      (r.allowDeletes === undefined || allowDeletes < r.allowDeletes) &&
      (r.allowUpdates === undefined || allowUpdates < r.allowUpdates),
  );
}

/** One line for people: "org: … (needs --allow-deletes 3)", or "(no flag overrides it)". */
export function refusalLine(r: Pick<SafetyRefusal, 'message' | 'override'>): string {
  return `${r.message} (${r.override ? `needs ${r.override}` : 'no flag overrides it'})`;
}
