import { z } from 'zod';
import { agentsContexts, visibilities } from '../model/kinds.js';
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
  exportParts,
  normalizeParts,
  partReads,
  partsDocs,
  partsReferences,
  partsAbsentKeys,
  partsShape,
} from './site-parts.js';
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
import { diffSteps, type DesiredSite, type LiveSite, type SiteOp } from './site-diff.js';
import { liveSite, pairing, Site } from './site-read.js';
import { liveSpaceIds, references } from './site-references.js';

export { siteAddress, type DesiredSite, type LiveSite, type SiteOp } from './site-diff.js';

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
    // Pushed onto the parts' fresh array: no two spreads a site.
    const out: Pick<EntryReference, 'target' | 'read'>[] = partsReferences(site, site.title);
    if (spaces) out.push({ target: 'space' });
    return out;
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
