import { z } from 'zod';
import { nullish } from '../model/schema.js';
import { emptyList } from '../model/holey.js';
import { kindDrafts } from '../diff/builder.js';
import { countLive, pairByIdentity, warn, type DiffContext } from '../diff/context.js';
import { changedFields, createdRef, fieldsToSet, liveRef } from '../diff/draft.js';
import type { SiteScope } from '../diff/site-scope.js';
import { SET_AFTER_CREATION, type Patch, type Ref } from '../model/change.js';
import { pagesOf, wholeOf, type ArrivingList, type Wait } from '../model/arriving.js';
import type { Renamable } from '../model/desired.js';
import { agentsContexts, visibilities, type AgentsContext, type Visibility } from '../model/kinds.js';
import {
  DefaultLevel,
  defined,
  duplicatesOf,
  fileSlug,
  pin,
  previously,
  shortTitlePinned,
} from './fields.js';
import {
  checkParts,
  diffParts,
  exportParts,
  normalizeParts,
  partReads,
  partsDocs,
  partsFromSite,
  partsReferences,
  partsAbsentKeys,
  partsShape,
  type DesiredSiteParts,
  type LiveSiteParts,
} from './site-parts.js';
import type { EntryOf } from './site-structure.js';
import {
  deleteCall,
  idOutput,
  type EntryReference,
  type ExportContext,
  type NormalizeExtras,
} from './types.js';
import { PRIVATE_KEY_MAX, privateKeyProblem } from './site-visitor-auth.js';
import { drained, type ListKind } from './shapes.js';
import { pick, type KindExamples } from './examples.js';
import { randomLiveStructure, randomStructure } from './site-structure.js';

/**
 * Sites of an organization, by title (or pinned id), with everything inside them (site-parts.ts).
 * The API's answer for one (lenient: unknown fields allowed).
 */
const Site = z.looseObject({
  id: z.string(),
  title: z.string(),
  visibility: z.enum(visibilities),
  basename: nullish(z.string()),
  agentsContext: nullish(z.enum(agentsContexts)),
  adaptiveContent: nullish(z.looseObject({ enabled: z.boolean() })),
  proxy: nullish(z.looseObject({ origin: z.string() })),
  defaultLevel: nullish(z.string()),
});
type Site = z.infer<typeof Site>;

export type SiteOp =
  | { type: 'create-site'; org: string; title: string; visibility?: string }
  | { type: 'update-site'; org: string; site: Ref; patch: Patch }
  | { type: 'delete-site'; org: string; site: Ref };

const LIST = '/orgs/{org}/sites';
const ROUTE = '/orgs/{org}/sites/{site}';

/** The API's shortest site title (api.md). */
const MIN_TITLE = 2;

const proxyPattern = /^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$/;

const Config = z
  .strictObject({
    title: z
      .string()
      .max(128)
      .describe(
        'Required: the identity of the site (unless id is pinned), 2 to 128 characters; shorter (even empty) only with id pinned, for a site that already has such a title (export writes them so).',
      ),
    id: pin('title'),
    previously: previously('title'),
    visibility: z
      .enum(visibilities)
      .optional()
      .describe("Optional. Omitted: the platform's default on creation, unmanaged afterwards."),
    basename: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .describe('Optional, 1 to 100 characters. Omitted: unmanaged (set after creation when given).'),
    agentsContext: z
      .enum(agentsContexts)
      .optional()
      .describe('Optional (api.md only; ignored with --api-flavor current). Omitted: unmanaged.'),
    adaptiveContent: z
      .strictObject({ enabled: z.boolean() })
      .optional()
      .describe('Optional. Omitted: unmanaged.'),
    proxy: z.string().max(512).regex(proxyPattern, 'must look like company.com/docs').nullable().optional(),
    defaultLevel: DefaultLevel.optional().describe(
      "Optional (current API): the default access level of the organization's members to the site's content: a role, inherit or null. Omitted: unmanaged.",
    ),
    ...partsShape,
  })
  .superRefine(shortTitlePinned(MIN_TITLE, 'site'));
type Config = z.infer<typeof Config>;

type OwnFields = {
  title: string;
  visibility?: Visibility;
  basename?: string;
  agentsContext?: AgentsContext;
  adaptiveContent?: { enabled: boolean };
  proxy?: string | null;
  defaultLevel?: string | null;
};
export type DesiredSite = Renamable & OwnFields & DesiredSiteParts;
export type LiveSite = LiveSiteParts & {
  id: string;
  title: string;
  visibility: Visibility;
  basename: string | null;
  agentsContext: AgentsContext | null;
  adaptiveContent: { enabled: boolean } | null;
  proxy: string | null;
  /** Today's API (absent: not read). */
  defaultLevel?: string | null;
};

const OWN_FIELDS = [
  'title',
  'visibility',
  'basename',
  'agentsContext',
  'adaptiveContent',
  'proxy',
  'defaultLevel',
] as const;
const SET_AFTER_CREATE = ['basename', 'agentsContext', 'adaptiveContent', 'proxy', 'defaultLevel'] as const;

/** A site's address in the plan. */
export const siteAddress = (org: string, title: string) => `${org}/sites/${title}`;

/** The spaces a live site shows, in order (one list, no list per section: issue 33). */
function liveSpaceIds(site: LiveSite): string[] {
  // `emptyList`: the proof reads a site's ids and a team's names in one loop (issue 33).
  const ids = emptyList<string>();
  for (const section of site.sections ?? []) for (const s of section.spaces) ids.push(s.space);
  for (const s of site.spaces ?? []) ids.push(s.space);
  return ids;
}

/** Strip the scheme the API puts on `proxy.origin`, giving the config's `company.com/docs` form. */
function proxyFromOrigin(origin: string): string {
  return origin.replace(/^[a-z]+:\/\//i, '').replace(/\/+$/, '');
}

const liveSite = (site: Site): LiveSite => ({
  id: site.id,
  title: site.title,
  visibility: site.visibility,
  basename: site.basename ?? null,
  agentsContext: site.agentsContext ?? null,
  adaptiveContent: site.adaptiveContent ? { enabled: site.adaptiveContent.enabled } : null,
  proxy: site.proxy ? proxyFromOrigin(site.proxy.origin) : null,
  ...(site.defaultLevel !== undefined ? { defaultLevel: site.defaultLevel } : {}),
  ...partsFromSite(site),
});

/** Which config entry each live site pairs with: by pin, by title, or by an earlier title (`previously`). */
function pairing(desired: DesiredSite[]): EntryOf<LiveSite, DesiredSite> {
  const byId = new Map<string, DesiredSite>();
  const byTitle = new Map<string, DesiredSite>();
  const byEarlier = new Map<string, DesiredSite>();
  for (const d of desired)
    if (d.id) byId.set(d.id, d);
    else {
      if (!byTitle.has(d.title)) byTitle.set(d.title, d);
      for (const p of d.previously ?? []) if (!byEarlier.has(p)) byEarlier.set(p, d);
    }
  return (s) => byId.get(s.id) ?? byTitle.get(s.title) ?? byEarlier.get(s.title);
}

function normalize(s: Config, extras: NormalizeExtras): DesiredSite {
  return defined({
    title: s.title,
    id: s.id,
    previously: s.previously,
    visibility: s.visibility,
    basename: s.basename,
    agentsContext: s.agentsContext,
    adaptiveContent: s.adaptiveContent,
    proxy: s.proxy,
    defaultLevel: s.defaultLevel,
    ...normalizeParts(s, extras.certificates.get(s)),
  }) as DesiredSite;
}

function exportSite(l: LiveSite, pinned: boolean, ctx: ExportContext): Config {
  return {
    title: l.title,
    ...(pinned ? { id: l.id } : {}),
    visibility: l.visibility,
    ...(l.basename !== null ? { basename: l.basename } : {}),
    ...(l.agentsContext !== null ? { agentsContext: l.agentsContext } : {}),
    ...(l.adaptiveContent !== null ? { adaptiveContent: { enabled: l.adaptiveContent.enabled } } : {}),
    ...(l.proxy !== null ? { proxy: l.proxy } : {}),
    // The API's own values: a role or inherit.
    ...(l.defaultLevel !== undefined && l.defaultLevel !== null
      ? { defaultLevel: l.defaultLevel as z.infer<typeof DefaultLevel> }
      : {}),
    ...exportParts(l, l.title, ctx.warnings, ctx.caps),
  };
}

/** One site's own fields: its creation or update, which its parts' defaults ride on. */
function diffOne(ctx: DiffContext, d: DesiredSite, l: LiveSite | undefined): void {
  const { org } = ctx;
  const drafts = kindDrafts<SiteOp>(ctx, 'site');
  const addr = siteAddress(org, d.title);
  const createKey = `create:${addr}`;
  ctx.siteRefs.set(d.title, l ? { ref: liveRef(l.id) } : { ref: createdRef(createKey), createKey });
  if (d.agentsContext !== undefined && !ctx.caps.agentsContext)
    warn(ctx, `site "${d.title}": agentsContext is not part of the current API and is ignored`);
  const site: SiteScope = {
    addr,
    ref: l ? liveRef(l.id) : createdRef(createKey),
    ...(l ? {} : { createKey }),
    patch: { before: {}, after: {}, body: {}, deps: [] },
  };
  if (!l) {
    drafts.create({
      address: addr,
      after: { title: d.title, ...(d.visibility ? { visibility: d.visibility } : {}) },
      op: { type: 'create-site', org, title: d.title, ...(d.visibility ? { visibility: d.visibility } : {}) },
    });
    const follow = fieldsToSet(d, SET_AFTER_CREATE);
    if (follow) Object.assign(site.patch, { after: { ...follow }, body: { ...follow } });
    site.patch.deps.push(createKey);
  } else {
    const diff = changedFields(d, l, OWN_FIELDS);
    if (diff)
      Object.assign(site.patch, { before: diff.before, after: { ...diff.after }, body: { ...diff.after } });
  }
  if (!ctx.caps.agentsContext)
    for (const side of [site.patch.body, site.patch.after, site.patch.before]) delete side['agentsContext'];
  diffParts(ctx, site, d.title, d, l);
  if (Object.keys(site.patch.after).length > 0)
    drafts.update({
      address: addr,
      before: l ? site.patch.before : null,
      after: site.patch.after,
      deps: site.patch.deps,
      ...(l ? {} : { note: SET_AFTER_CREATION }),
      op: { type: 'update-site', org, site: site.ref, patch: site.patch.body },
    });
}

/**
 * The spaces a site's site spaces name, and what its parts name. Asked twice a plan for each of
 * tens of thousands of site spaces: one holder text per section, no intermediate arrays (decision 42).
 */
function references(
  site: DesiredSite,
  _org?: never,
  wanted: (target: string, id: string) => boolean = () => true,
): EntryReference[] {
  const out = partsReferences(site, site.title);
  site.sections?.forEach((section, j) => {
    let holder: string | undefined;
    section.spaces.forEach((s, k) => {
      if (!wanted('space', s.space)) return;
      holder ??= `site "${site.title}" section "${section.path}"`;
      out.push({ target: 'space', id: s.space, path: ['sections', j, 'spaces', k, 'space'], holder });
    });
  });
  if (site.spaces) {
    const holder = `site "${site.title}"`;
    site.spaces.forEach((s, k) => {
      if (wanted('space', s.space))
        out.push({ target: 'space', id: s.space, path: ['spaces', k, 'space'], holder });
    });
  }
  return out;
}

/**
 * The sites' diff, a site at a time (its `diff` runs them at once): it reads nothing other kinds'
 * diffs write. While the list is read (`arriving`), the sites are paired once its pages are read
 * (a site's title is on its page) and each site is diffed once the reads below it (its sections)
 * are done, in the pairs' order: the diff runs while the other sites' sections are still read.
 */
function* diffSteps(
  ctx: DiffContext,
  desired: DesiredSite[],
  live: LiveSite[],
  arriving?: ArrivingList<LiveSite>,
): Generator<void | Wait, void, undefined> {
  const { pairs, leftover } = pairSites(ctx, desired, arriving ? yield* pagesOf(arriving) : live);
  yield;
  for (const [d, l] of pairs) {
    diffOne(ctx, d, l && arriving ? yield* wholeOf(arriving, l) : l);
    yield;
  }
  // Their id and title, as paged: the same as whole.
  pruneSites(ctx, leftover);
}

function pairSites(ctx: DiffContext, desired: DesiredSite[], live: readonly LiveSite[]) {
  countLive(ctx, 'site', live.length);
  return pairByIdentity(ctx, 'site', desired, live, (x) => x.title);
}

/** The live sites the config does not describe. */
function pruneSites(ctx: DiffContext, leftover: readonly LiveSite[]): void {
  const drafts = kindDrafts<SiteOp>(ctx, 'site');
  for (const l of leftover) {
    const addr = siteAddress(ctx.org, l.title);
    drafts.prune({
      address: addr,
      id: l.id,
      before: { title: l.title },
      op: { type: 'delete-site', org: ctx.org, site: liveRef(l.id) },
    });
  }
}

export const siteKind: ListKind<'sites', Config, DesiredSite, LiveSite, SiteOp, 'site'> = {
  kind: 'site',
  key: 'sites',
  config: Config,
  configBefore: 'end',
  docs: {
    'sites[]': {
      title: 'sites',
      identity: '`title`',
      example: [
        {
          title: 'Developer Docs',
          visibility: 'public',
          shareLinks: [{ name: 'partner-preview' }],
          sections: [
            { path: 'api', title: 'API Reference', spaces: [{ space: 'space_api', default: true }] },
          ],
        },
      ],
    },
    'sites[].adaptiveContent': { title: 'adaptive content' },
    ...partsDocs,
  },
  unique: { what: 'site', key: 'title', pinned: true },
  absentKeys: { in: ['seed'], paths: ['defaultLevel', ...partsAbsentKeys] },
  check: checkParts,
  // A site's visitor authentication may name the private key it expects (never sent: compared by fingerprint).
  indirect: {
    key: 'visitorAuth',
    under: 'privateKey',
    source: (s) => s.visitorAuth?.privateKey,
    maxChars: PRIVATE_KEY_MAX,
    content: privateKeyProblem,
  },
  normalize,
  references,
  referenceTargets: (site: DesiredSite) => {
    const spaces = (site.sections ?? []).some((s) => s.spaces.length > 0) || (site.spaces ?? []).length > 0;
    return [...partsReferences(site, site.title), ...(spaces ? [{ target: 'space' }] : [])];
  },
  liveReferences: (site: LiveSite) => [{ target: 'space', names: liveSpaceIds(site) }],
  lookup: {
    target: 'site',
    noun: 'site',
    quoted: true,
    names: (s: LiveSite) => [s.title],
    created: (s: DesiredSite) => [s.title],
    readWhenNamed: true,
  },
  reads: [
    {
      list: (org) => ({ route: LIST, params: { org }, item: Site }),
      live: liveSite,
      children: { prepare: pairing, reads: partReads<LiveSite>() },
    },
  ],
  diff: drained(diffSteps),
  diffSteps,
  // Its grants (`access`) name teams and members through what the teams' and members' diffs write.
  diffsAlone: (sites) => sites.every((s) => s.access === undefined),
  // A site's sections are read below it; its diff, most of a plan's, waits for them.
  readsBelowShare: 1.5,
  diffPhase: 'before-settings',
  export: {
    each: (live, ctx) => {
      const dup = duplicatesOf(live.map((s) => s.title));
      const taken = new Set<string>();
      return live.map((l) => ({
        path: `sites/${fileSlug(l.title, taken, 'site')}.yaml`,
        header: `Site "${l.title}"`,
        entry: exportSite(l, dup.has(l.title) || l.title.length < MIN_TITLE, ctx),
      }));
    },
  },
  ops: {
    'create-site': {
      call: (op) => ({
        method: 'POST',
        route: LIST,
        params: { org: op.org },
        body: { title: op.title, ...(op.visibility ? { visibility: op.visibility } : {}) },
        expect: [201],
        answer: Site,
        create: true,
      }),
      output: idOutput,
      adopt: {
        list: (op) => ({ route: LIST, params: { org: op.org }, item: Site }),
        find: (s: Site, op) => s.title === op.title,
        output: idOutput,
      },
    },
    'update-site': {
      call: (op, r) => ({
        method: 'PATCH',
        route: ROUTE,
        params: { org: op.org, site: r.ref(op.site) },
        body: r.patch(op.patch),
        expect: [200],
        answer: Site,
      }),
    },
    'delete-site': {
      call: (op, r, caps) => deleteCall(ROUTE, { org: op.org, site: r.ref(op.site) }, caps),
    },
  },
  examples: {
    pairs: [
      {
        config: { title: 'Handbook', visibility: 'unlisted' },
        seed: { title: 'Handbook', visibility: 'unlisted' },
        changed: { title: 'Handbook', visibility: 'public' },
      },
      {
        config: { title: 'Manual', basename: 'manual' },
        seed: { title: 'Manual', basename: 'manual' },
        changed: { title: 'User manual', previously: ['Manual'], basename: 'manual' },
      },
    ],
    // Sites with a random structure over the test organization's spaces (src/kinds/site-structure.ts).
    random: (r) => ({
      title: pick(r, ['Docs', 'Guides']),
      ...(r() < 0.5 ? { visibility: pick(r, ['public', 'unlisted', 'share-link'] as const) } : {}),
      ...(r() < 0.5 ? { basename: pick(r, ['docs', 'help', 'kb']) } : {}),
      ...(r() < 0.3 ? { proxy: r() < 0.5 ? null : 'company.com/docs' } : {}),
      ...randomStructure(r),
    }),
    randomSeed: (r) => ({ title: pick(r, ['Docs', 'Guides', 'Old']), ...randomLiveStructure(r) }),
  } satisfies KindExamples<Config>,
};
