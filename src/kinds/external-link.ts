import { z } from 'zod';
import { kindDrafts } from '../diff/builder.js';
import { countLive, type DiffContext } from '../diff/context.js';
import type { SiteScope } from '../diff/site-scope.js';
import type { LiveStructure } from './site-section.js';
import type { DesiredExternalLink, ExternalLinkOp, LiveExternalLink } from './external-link-order.js';
import { placedLinks, type Neighbour } from './external-link-place.js';
import { diffLinks } from './external-link-diff.js';
import { exportedNames } from './site-structure.js';
import { nullish } from '../model/schema.js';
import { emulated } from './emulated.js';
import type { KindExamples } from './examples.js';
import { defined, duplicatesOf, LANGUAGES, Localized, localized, pin, previously } from './fields.js';
import type { SiteListKind } from './shapes.js';
import { deleteCall, idOutput, structureSort, type ApiCall } from './types.js';

/**
 * External links in a site's navigation (today's API), by title (or pinned id): created, changed
 * and deleted with their own calls, read in the site's structure (the API has no list of them), and
 * ordered among themselves with the structure's sort call. The API appends a new link at the end
 * of the site's navigation, after its sections.
 */

const Url = z
  .string()
  .max(2048)
  .regex(/^https?:\/\/\S+$/, 'must be an absolute http or https URL');

const Config = z.strictObject({
  title: z
    .string()
    .min(2)
    .max(128)
    .describe('Identity of the link within its site (unless id is pinned), 2 to 128 characters.'),
  id: pin('title'),
  previously: previously('title'),
  url: Url.describe(
    'Required: where the link goes, an absolute http or https URL (at most 2048 characters).',
  ),
  description: z
    .string()
    .max(256)
    .nullable()
    .optional()
    .describe('Optional, at most 256 characters; null removes it. Omitted: unmanaged.'),
  icon: z
    .string()
    .min(1)
    .max(50)
    .nullable()
    .optional()
    .describe('Optional icon name, at most 50 characters; null removes it. Omitted: unmanaged.'),
  draft: z
    .boolean()
    .optional()
    .describe(
      'Optional: a draft link is not live (the site preview shows it); a new one is created as a draft, false promotes it. Omitted: unmanaged.',
    ),
  localizedTitle: localized(128, 'title'),
  group: z
    .string()
    .min(1)
    .max(100)
    .nullable()
    .optional()
    .describe(
      "Optional: the title of the section group (of this site's sectionGroups) the link is in; null: the site's root. Omitted: unmanaged (a new link is created at the root), or the root when after is given.",
    ),
  after: z
    .string()
    .min(1)
    .max(128)
    .optional()
    .describe(
      'Optional: the section path, section group title or external link title (of this site, at the same level: the root or the same group) the link comes right after in the navigation. Omitted: its place among sections is unmanaged; the links without after keep the order of the list among themselves.',
    ),
});
type Config = z.infer<typeof Config>;

export type { DesiredExternalLink, ExternalLinkOp, LiveExternalLink } from './external-link-order.js';

/** One link as the API answers it (lenient: unknown fields allowed). */
const Answer = z.looseObject({
  object: z.literal('site-external-link'),
  id: z.string(),
  title: z.string(),
  url: z.string(),
  description: nullish(z.string()),
  icon: nullish(z.string()),
  draft: nullish(z.boolean()),
  localizedTitle: nullish(Localized),
});
type Answer = z.infer<typeof Answer>;

/** The site's structure: its root items, and the children of its groups (where links may be too). */
const StructureItem = z.looseObject({
  object: z.string().optional(),
  children: z.array(z.unknown()).optional(),
});
const Structure = z.looseObject({ type: z.string(), structure: z.array(StructureItem) });

const LIST = '/orgs/{org}/sites/{site}/external-links';
const ROUTE = '/orgs/{org}/sites/{site}/external-links/{link}';
const STRUCTURE = '/orgs/{org}/sites/{site}/structure';

/** The site's structure: one GET. */
const structureCall = (org: string, site: string): ApiCall => ({
  method: 'GET',
  route: STRUCTURE,
  params: { org, site },
  expect: [200],
  answer: Structure,
});

type Placed = [Answer, string | null, Neighbour | null];

const liveLink = ([a, group, prev]: Placed): LiveExternalLink => ({
  id: a.id,
  title: a.title,
  url: a.url,
  description: a.description ?? null,
  icon: a.icon ?? null,
  draft: a.draft ?? false,
  localizedTitle: a.localizedTitle ?? {},
  group,
  prev,
});

/** The links of a structure answer, in navigation order, with their group and the item before them. */
function linksOf(answer: z.infer<typeof Structure>): Placed[] {
  return placedLinks(answer.structure).map(({ link, group, prev }) => [Answer.parse(link), group, prev]);
}

const address = (site: string, title: string) => `${site}/external-links/${title}`;

function diff(
  ctx: DiffContext,
  site: SiteScope,
  siteTitle: string,
  desired: DesiredExternalLink[],
  live: LiveExternalLink[],
): void {
  const drafts = kindDrafts<ExternalLinkOp>(ctx, 'site-external-link');
  countLive(ctx, 'site-external-link', live.length);
  diffLinks(ctx, drafts, site, `site "${siteTitle}": external link`, { desired, live }, (title) =>
    address(site.addr, title),
  );
}

/**
 * Where a live link is, as config: its group and the item it comes after, each by a name the
 * exported config holds once (a section without site spaces is not exported; a shared name is
 * ambiguous): left out otherwise (unmanaged).
 */
function exportPlace(live: readonly LiveExternalLink[], site: LiveStructure) {
  const structure = exportedNames(site);
  const names = [...structure.names, ...live.map((l) => l.title)];
  const once = (name: string) => names.filter((n) => n === name).length === 1;
  const exported = new Set(names);
  return (x: LiveExternalLink) => {
    const group = x.group === null ? null : structure.groupTitle(x.group);
    if (group === undefined || (group !== null && !once(group))) return {};
    const after = x.prev && exported.has(x.prev.name) && once(x.prev.name) ? { after: x.prev.name } : {};
    return { ...(group !== null ? { group } : {}), ...after };
  };
}

/** The emulator's link. */
type Emulated = {
  id: string;
  title: string;
  url: string;
  description: string | null;
  icon: string | null;
  draft: boolean;
  localizedTitle: Record<string, string> | null;
  /** The section group it is in (null: the site's root). */
  groupId: string | null;
};
const Title = z.string().min(2).max(128);
const Text = z.string().max(256).nullable();
const IconName = z.string().max(50).nullable();
const LocalizedBody = z.partialRecord(z.enum(LANGUAGES), z.string().max(128));

const emulator = emulated({
  in: 'sites',
  store: 'externalLinks',
  routes: { list: LIST, item: ROUTE },
  // The API has no list of links: they are read in the site's structure (served with it).
  listed: false,
  noun: 'external link',
  idPrefix: 'sel',
  create: {
    body: z.object({
      title: Title,
      url: Url,
      description: Text.optional(),
      icon: IconName.optional(),
      draft: z.boolean().optional(),
      localizedTitle: LocalizedBody.optional(),
      parent: z.string().min(1).optional(),
    }),
    item: (b, ctx): Emulated => ({
      id: ctx.id(),
      title: b.title,
      url: b.url,
      description: b.description ?? null,
      icon: b.icon ?? null,
      draft: b.draft ?? false,
      localizedTitle: (b.localizedTitle as Record<string, string> | undefined) ?? null,
      groupId: b.parent ?? null,
    }),
  },
  update: {
    method: 'PATCH',
    body: z.object({
      title: Title.optional(),
      url: Url.optional(),
      description: Text.optional(),
      icon: IconName.optional(),
      draft: z.boolean().optional(),
      localizedTitle: LocalizedBody.nullable().optional(),
      parent: z.string().min(1).nullable().optional(),
    }),
    apply: (l, b) => {
      if (b.parent !== undefined) l.groupId = b.parent;
      if (b.title !== undefined) l.title = b.title;
      if (b.url !== undefined) l.url = b.url;
      if (b.description !== undefined) l.description = b.description;
      if (b.icon !== undefined) l.icon = b.icon;
      if (b.draft !== undefined) l.draft = b.draft;
      if (b.localizedTitle !== undefined)
        l.localizedTitle = b.localizedTitle as Record<string, string> | null;
    },
  },
  delete: { status: 205 },
  answer: (l) => ({
    object: 'site-external-link',
    id: l.id,
    title: l.title,
    ...(l.localizedTitle ? { localizedTitle: l.localizedTitle } : {}),
    ...(l.description !== null ? { description: l.description } : {}),
    ...(l.icon !== null ? { icon: l.icon } : {}),
    url: l.url,
    draft: l.draft,
  }),
  seed: {
    entry: z.looseObject({
      id: z.string().optional(),
      title: z.string(),
      url: z.string(),
      description: z.string().nullable().optional(),
      icon: z.string().nullable().optional(),
      draft: z.boolean().default(false),
      /** The id of its section group. */
      group: z.string().optional(),
    }),
    item: (x, ctx): Emulated => ({
      id: x.id ?? ctx.id(),
      title: x.title,
      url: x.url,
      description: x.description ?? null,
      icon: x.icon ?? null,
      draft: x.draft,
      localizedTitle: null,
      groupId: x.group ?? null,
    }),
  },
  hooks: {
    // A link is created in (or moved to) a section group of its site.
    missing: (b, site) => {
      const parent = (b as { parent?: string | null }).parent;
      const groups = (site['groups'] ?? []) as { id: string }[];
      return parent && !groups.some((g) => g.id === parent) ? `section group ${parent} not found` : undefined;
    },
  },
});

export const externalLinkKind: SiteListKind<
  'externalLinks',
  Config,
  DesiredExternalLink,
  LiveExternalLink,
  ExternalLinkOp,
  'site-external-link'
> = {
  kind: 'site-external-link',
  key: 'externalLinks',
  config: Config,
  describe:
    "Optional (current API): links to other sites in the navigation, at the site's root or in a section group (group), right after a given section, group or link (after). Omitted: the site's external links are not read or changed.",
  docs: {
    'sites[].externalLinks[]': {
      title: 'external links',
      identity: '`title` within the site',
      notes: [
        "Today's API only (the seed flavor refuses the key). A site with root site spaces (no sections) cannot have external links. The API has no list of links: docsync reads them in the site's structure. A new link is created in its `group` (`parent`), else at the root, at the end of its level; a link moved into another group is one update (`parent`).",
        "`after` names a section (path), a section group (title) or another link (title) of the same level (the root, or the link's group): the link is placed right after it with one structure sort call, when it is elsewhere, new, moved, or when another move of the plan comes between them; these calls run after the site's other moves. At most one link per item; with `after` and no `group`, the link is at the root. Links without `after` at the root keep the order of the list among themselves (one sort call per move); without `after` and `group`, a link stays where it is.",
      ],
    },
  },
  unique: { what: 'external link', key: 'title', pinned: true },
  absentIn: ['seed'],
  normalize: (l) =>
    defined({
      group: l.group,
      after: l.after,
      title: l.title,
      id: l.id,
      previously: l.previously,
      url: l.url,
      description: l.description,
      icon: l.icon,
      draft: l.draft,
      localizedTitle: l.localizedTitle,
    }),
  emulator,
  read: {
    call: structureCall,
    items: (answer) => linksOf(Structure.parse(answer)),
    live: (a: Placed) => liveLink(a),
  },
  diff,
  export: (live, site) => {
    const dup = duplicatesOf(live.map((x) => x.title));
    const place = exportPlace(live, site as LiveStructure);
    return live.map((x) => ({
      title: x.title,
      ...(dup.has(x.title) ? { id: x.id } : {}),
      url: x.url,
      ...(x.description !== null ? { description: x.description } : {}),
      ...(x.icon !== null ? { icon: x.icon } : {}),
      ...(x.draft ? { draft: true } : {}),
      ...(Object.keys(x.localizedTitle).length > 0
        ? { localizedTitle: x.localizedTitle as Config['localizedTitle'] }
        : {}),
      ...place(x),
    }));
  },
  ops: {
    'create-external-link': {
      call: (op, r) => ({
        method: 'POST',
        route: LIST,
        params: { org: op.org, site: r.ref(op.site) },
        body: { title: op.title, url: op.url, ...r.patch(op.fields) },
        expect: [201],
        answer: Answer,
        create: true,
      }),
      output: idOutput,
      adopt: {
        read: (op, r) => structureCall(op.org, r.ref(op.site)),
        items: (answer) => linksOf(Structure.parse(answer)).map(([l]) => l),
        find: (l: Answer, op) => l.title === op.title,
        output: idOutput,
      },
    },
    'update-external-link': {
      call: (op, r) => ({
        method: 'PATCH',
        route: ROUTE,
        params: { org: op.org, site: r.ref(op.site), link: r.ref(op.link) },
        body: r.patch(op.patch),
        expect: [200, 204],
      }),
    },
    'delete-external-link': {
      call: (op, r, caps) =>
        deleteCall(ROUTE, { org: op.org, site: r.ref(op.site), link: r.ref(op.link) }, caps),
    },
    'move-external-link': {
      call: (op, r) =>
        structureSort(
          r,
          { org: op.org, site: op.site, item: op.link, position: op.position },
          'site-external-link',
          op.anchorType,
        ),
    },
  },
  examples: {
    flavor: 'current',
    pairs: [
      {
        config: { title: 'Status', url: 'https://status.example.com' },
        seed: { title: 'Status', url: 'https://status.example.com' },
        changed: { title: 'Status', url: 'https://status.example.com/docs', draft: true },
      },
      {
        config: { title: 'Community', url: 'https://community.example.com', icon: 'users' },
        seed: { title: 'Community', url: 'https://community.example.com', icon: 'users' },
        changed: { title: 'Forum', previously: ['Community'], url: 'https://community.example.com' },
      },
    ],
  } satisfies KindExamples<Config>,
};
