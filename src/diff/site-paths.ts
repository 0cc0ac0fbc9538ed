import type { Ref } from '../model/change.js';

/**
 * Links that survive restructuring (issue 30, decision 36): where each path of a site leads after a
 * plan, which published paths it takes away, and the redirects that keep them working. Pure: the
 * structure's diff records the paths (`SitePaths`), `planLinks` decides the redirects.
 */

/** `policy.brokenLinks`: plan the redirects (default), refuse any link the config does not redirect, or let links break. */
export const brokenLinksPolicies = ['refuse', 'redirect', 'allow'] as const;
export type BrokenLinksPolicy = (typeof brokenLinksPolicies)[number];
export const DEFAULT_BROKEN_LINKS: BrokenLinksPolicy = 'redirect';

/** A redirect the plan adds for a published path it changes. */
export type PlannedRedirect = { site: string; source: string; destination: string; reason: string };
/**
 * The config entry whose own `brokenLinks: refuse` refused a path: its address, its path in the
 * site's config entry (`['sections', 0, 'brokenLinks']`), and where that is when the config was
 * loaded here (the plan step adds it).
 */
export type BrokenLinkSetting = {
  address: string;
  path: (string | number)[];
  at?: { file: string; line: number; column: number };
};
/** A published path the plan would break, and why. */
export type BrokenLinkFact = {
  site: string;
  address: string;
  path: string;
  what: string;
  reason: string;
  /** Set when the entry's own `brokenLinks` refused it rather than `policy.brokenLinks`. */
  setting?: BrokenLinkSetting;
};

/** What a path of the site shows after the plan: a section or a site space. */
export type PathTarget = {
  type: 'section-path' | 'space-path';
  ref: Ref;
  /** The draft that creates it, when the plan does. */
  createKey?: string;
  /** Its live id, when it exists already. */
  liveId?: string;
  /** Its path after the plan, when known (a created site space without `path` is named by the platform). */
  path?: string;
  /** For people: `section "guides"`, `site space space_1`. */
  label: string;
};

/** A published path of the site before the plan, and what was there. */
export type OldPath = {
  path: string;
  label: string;
  /** Where that object is after the plan (null: deleted). */
  target: PathTarget | null;
  /**
   * The path of the section it is in, when it keeps its own segment there: the section's wildcard
   * redirect already carries it (`/guides/*` → `/tutorials` + `/v2`), so it needs none of its own.
   */
  under?: string;
  /** The entry's own `brokenLinks` (a section or site space of the config), over the policy's. */
  policy?: BrokenLinksPolicy;
  /** The addresses of that object's changes (before and after the plan), for `--target`. */
  addresses?: string[];
};

/** The site's paths, as the structure's diff leaves them. */
export type SitePaths = {
  /** Every path after the plan, and what it shows. */
  after: Map<string, PathTarget>;
  /** The live paths (sections, then their site spaces), with what becomes of each. */
  old: OldPath[];
  /** Live path of each live section and site space, by id (to show a live redirect's destination). */
  liveById: Map<string, string>;
};

/**
 * The live paths of the drafts among a site's sections and site spaces (`drafts`: their live ids),
 * from the structure's record of each live path by id.
 */
export function draftPaths(liveById: ReadonlyMap<string, string>, drafts: ReadonlySet<string>): string[] {
  return [...drafts].flatMap((id) => {
    const path = liveById.get(id);
    return path === undefined ? [] : [path];
  });
}

/** Where a redirect leads: something of the site, or a URL. */
export type LinkDestination<T> = { to: T; path?: string } | { url: string };

export type PlannedLink<T> = {
  source: string;
  destination: LinkDestination<T>;
  captureWildcard: boolean;
  /** Why: `section "guides" moves to /tutorials`. */
  reason: string;
  /** The addresses of the object whose path it keeps (a partial plan takes it with that object). */
  addresses?: string[];
};

/** `ownPolicy`: the old path's own (entry's) `brokenLinks` decided, not the organization's policy. */
export type BrokenLink = { path: string; label: string; reason: string; ownPolicy?: true };

export type LinkInput<T> = {
  policy: BrokenLinksPolicy;
  /** The site's `redirectFallback`: where deleted paths go (a site path or a URL). */
  fallback?: string;
  old: readonly {
    path: string;
    label: string;
    target: T | null;
    targetPath?: string;
    under?: string;
    policy?: BrokenLinksPolicy;
    addresses?: string[];
  }[];
  after: ReadonlyMap<string, T>;
  /** Declared redirects whose destination is a site path or a URL (source → destination). */
  declared: ReadonlyMap<string, string>;
  /**
   * Live paths that are not published (a draft section's, a draft site space's): they and what is
   * below them have no URL to keep, so they plan no redirect and break no link. A hidden one is
   * published (reachable by its URL) and is not among them.
   */
  drafts?: readonly string[];
};

export type LinkPlan<T> = {
  planned: PlannedLink<T>[];
  /** Each declared redirect's destination, resolved through the plan (chains collapsed); absent: an error. */
  resolved: Map<string, LinkDestination<T>>;
  broken: BrokenLink[];
  problems: { code: 'redirect-loop' | 'unknown-redirect-destination'; message: string }[];
};

const isUrl = (s: string) => /^https?:\/\//i.test(s);

/** A wildcard source below a path: `/guides` → `/guides/*`. */
export const wildcardOf = (path: string) => `${path}/*`;

/**
 * The redirects a plan needs so that no published path of the site breaks, and the paths it cannot
 * keep. A declared redirect for a source wins over a planned one; a declared destination that is an
 * old path follows that path's redirect (chains collapse: a → b and b → c give a → c); a chain
 * that comes back to itself is a loop (a problem).
 */
export function planLinks<T>(input: LinkInput<T>): LinkPlan<T> {
  const planned: PlannedLink<T>[] = [];
  const broken: BrokenLink[] = [];
  const problems: LinkPlan<T>['problems'] = [];
  /** Old exact paths redirected by the plan, to what (for collapsing declared chains). */
  const plannedExact = new Map<string, LinkDestination<T>>();
  const fallbackOf: OldLink[] = [];
  planOldPaths(input, planned, broken, plannedExact, fallbackOf);

  const resolved = new Map<string, LinkDestination<T>>();
  const resolve = (destination: string, chain: string[]): LinkDestination<T> | undefined => {
    if (isUrl(destination)) return { url: destination };
    const here = input.after.get(destination);
    if (here !== undefined) return { to: here, path: destination };
    const next = plannedExact.get(destination);
    if (next) return next;
    const declared = input.declared.get(destination);
    if (declared !== undefined) {
      if (chain.includes(destination)) {
        problems.push({
          code: 'redirect-loop',
          message: `redirect loop: ${[...chain, destination].join(' → ')}`,
        });
        return undefined;
      }
      return resolve(declared, [...chain, destination]);
    }
    problems.push({
      code: 'unknown-redirect-destination',
      message: `redirect ${chain[0]}: destination ${destination} is neither a path of the site after this plan nor a URL`,
    });
    return undefined;
  };
  for (const [source, destination] of input.declared) {
    const r = resolve(destination, [source]);
    if (r) resolved.set(source, r);
  }
  if (input.fallback !== undefined && fallbackOf.length > 0) {
    const fallback = input.fallback;
    const r = resolve(fallback, ['redirectFallback']);
    if (r)
      for (const o of fallbackOf) {
        const reason = `${o.label} is deleted: redirectFallback ${fallback}`;
        const from = o.addresses ? { addresses: o.addresses } : {};
        planned.push({ source: o.path, destination: r, captureWildcard: false, reason, ...from });
        planned.push({ source: wildcardOf(o.path), destination: r, captureWildcard: false, reason, ...from });
      }
  }
  return { planned, resolved, broken, problems: dedupe(problems) };
}

/** An old path whose object is deleted, to redirect to the site's `redirectFallback`. */
type OldLink = { path: string; label: string; addresses?: string[] };

/**
 * The first step of `planLinks`: for each published old path the plan takes away, plan its
 * redirects (into `planned` and `plannedExact`), keep it for the fallback (`fallbackOf`), or name
 * it broken (`broken`).
 */
function planOldPaths<T>(
  input: LinkInput<T>,
  planned: PlannedLink<T>[],
  broken: BrokenLink[],
  plannedExact: Map<string, LinkDestination<T>>,
  fallbackOf: OldLink[],
): void {
  const wildcards = new Set<string>();
  const drafts = input.drafts ?? [];
  const linkable = (path: string) => !drafts.some((u) => path === u || path.startsWith(`${u}/`));
  for (const o of input.old) {
    if (!linkable(o.path)) continue;
    if (input.after.has(o.path)) continue;
    if (input.declared.has(o.path)) continue;
    const policy = o.policy ?? input.policy;
    if (policy === 'allow') continue;
    if (o.under !== undefined && wildcards.has(o.under)) continue;
    if (policy === 'redirect' && o.target !== null) {
      const destination: LinkDestination<T> = {
        to: o.target,
        ...(o.targetPath !== undefined ? { path: o.targetPath } : {}),
      };
      const reason = `${o.label} moves to ${o.targetPath ?? 'its new place'}`;
      const from = o.addresses ? { addresses: o.addresses } : {};
      planned.push({ source: o.path, destination, captureWildcard: false, reason, ...from });
      planned.push({ source: wildcardOf(o.path), destination, captureWildcard: true, reason, ...from });
      plannedExact.set(o.path, destination);
      wildcards.add(o.path);
      continue;
    }
    if (policy === 'redirect' && input.fallback !== undefined) {
      fallbackOf.push(o);
      continue;
    }
    const own = o.policy !== undefined;
    const setBy = own ? "the entry's brokenLinks" : 'policy.brokenLinks';
    broken.push({
      path: o.path,
      label: o.label,
      reason:
        policy === 'refuse'
          ? `${o.target === null ? 'deleted' : `moves to ${o.targetPath ?? 'another path'}`} and ${setBy} is refuse`
          : 'deleted, and no redirect or redirectFallback says where it goes',
      ...(own && policy === 'refuse' ? { ownPolicy: true as const } : {}),
    });
  }
}

function dedupe<P extends { message: string }>(list: P[]): P[] {
  const seen = new Set<string>();
  return list.filter((p) => (seen.has(p.message) ? false : (seen.add(p.message), true)));
}
