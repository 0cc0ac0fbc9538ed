import { z } from 'zod';
import { kindDrafts } from '../diff/builder.js';
import { countLive, pairByIdentity, type DiffContext } from '../diff/context.js';
import { changedFields, createdRef, liveRef } from '../diff/draft.js';
import type { SiteScope } from '../diff/site-scope.js';
import { SET_AFTER_CREATION, type Patch, type Ref } from '../model/change.js';
import { emulated } from './emulated.js';
import { defined, duplicatesOf, pin, previously } from './fields.js';
import { deleteCall, idOutput, type Credentials } from './types.js';
import type { SiteListKind } from './shapes.js';
import type { KindExamples } from './examples.js';

/** Share links of a site, by name (or pinned id). Their URLs are secrets: never read, never in a plan. */

export type ShareLinkOp =
  | { type: 'create-share-link'; org: string; site: Ref; name: string }
  | { type: 'update-share-link'; org: string; site: Ref; shareLink: Ref; patch: Patch }
  | { type: 'delete-share-link'; org: string; site: Ref; shareLink: Ref };

const Config = z.strictObject({
  name: z
    .string()
    .max(50)
    .describe(
      'Identity of the share link within its site (unless id is pinned), at most 50 characters; the API allows an empty name. A rename keeps its URL.',
    ),
  id: pin('name'),
  previously: previously('name'),
  active: z.boolean().optional().describe('Optional. Omitted: created active, then unmanaged.'),
});
type Config = z.infer<typeof Config>;

export type DesiredShareLink = { name: string; id?: string; previously?: string[]; active?: boolean };
export type LiveShareLink = { id: string; name: string; active: boolean };

/** The URL is deliberately not part of the answer's schema, so it never enters the model. */
const Answer = z.looseObject({
  id: z.string(),
  name: z.string().nullable().optional(),
  active: z.boolean().nullable().optional(),
});
type Answer = z.infer<typeof Answer>;

const LIST = '/orgs/{org}/sites/{site}/share-links';
const ROUTE = '/orgs/{org}/sites/{site}/share-links/{link}';

/** A share link's URL opens the site to whoever holds it. */
const credentials: Credentials = { fields: ['urls.published'] };
const list = (org: string, site: string) => ({
  route: LIST,
  params: { org, site },
  item: Answer,
  credentials,
});

/** The emulator's share link: its token is the secret part of its URL. */
type Emulated = { id: string; name: string; active: boolean; createdAt: string; token: string };
const Name = z.string().max(50);

const emulator = emulated({
  in: 'sites',
  store: 'shareLinks',
  routes: { list: LIST, item: ROUTE },
  noun: 'share link',
  idPrefix: 'sl',
  create: {
    body: z.object({ name: Name }),
    item: (b, ctx): Emulated => ({
      id: ctx.id(),
      name: b.name,
      active: true,
      createdAt: ctx.now(),
      token: ctx.secret(),
    }),
  },
  update: {
    method: 'PATCH',
    body: z.object({ name: Name.optional(), active: z.boolean().optional() }),
    apply: (l, b) => {
      if (b.name !== undefined) l.name = b.name;
      if (b.active !== undefined) l.active = b.active;
    },
  },
  delete: { status: 205 },
  answer: (l, ctx) => ({
    object: 'share-link',
    id: l.id,
    createdAt: l.createdAt,
    name: l.name,
    active: l.active,
    urls: { published: `${ctx.urls.docs}/${ctx.site}?share=${l.token}` },
  }),
  seed: {
    entry: z.looseObject({ id: z.string().optional(), name: z.string(), active: z.boolean().default(true) }),
    item: (x, ctx): Emulated => ({
      id: x.id ?? ctx.id(),
      name: x.name,
      active: x.active,
      createdAt: ctx.now(),
      token: ctx.secret(),
    }),
  },
});
const address = (site: string, name: string) => `${site}/share-links/${name}`;

/** The API creates share links active. */
const CREATED_ACTIVE = true;

function diff(
  ctx: DiffContext,
  site: SiteScope,
  siteTitle: string,
  desired: DesiredShareLink[],
  live: LiveShareLink[],
): void {
  const { org } = ctx;
  const drafts = kindDrafts<ShareLinkOp>(ctx, 'share-link');
  countLive(ctx, 'share-link', live.length);
  const { pairs, leftover } = pairByIdentity(
    ctx,
    `site "${siteTitle}": share link`,
    desired,
    live,
    (x) => x.name,
  );
  for (const [dl, ll] of pairs) {
    const addr = address(site.addr, dl.name);
    if (!ll) {
      const key = drafts.create({
        address: addr,
        after: { name: dl.name },
        deps: [site.createKey],
        op: { type: 'create-share-link', org, site: site.ref, name: dl.name },
      });
      if (dl.active !== undefined && dl.active !== CREATED_ACTIVE)
        drafts.update({
          address: addr,
          before: null,
          after: { active: dl.active },
          deps: [key],
          note: SET_AFTER_CREATION,
          op: {
            type: 'update-share-link',
            org,
            site: site.ref,
            shareLink: createdRef(key),
            patch: { active: dl.active },
          },
        });
      continue;
    }
    // A rename keeps the link (and its secret URL): one update.
    const changed = changedFields(dl, ll, ['name', 'active']);
    if (changed)
      drafts.update({
        address: addr,
        ...changed,
        op: {
          type: 'update-share-link',
          org,
          site: site.ref,
          shareLink: liveRef(ll.id),
          patch: changed.after,
        },
      });
  }
  for (const ll of leftover) {
    const addr = address(site.addr, ll.name);
    drafts.prune({
      address: addr,
      id: ll.id,
      before: { name: ll.name },
      op: { type: 'delete-share-link', org, site: site.ref, shareLink: liveRef(ll.id) },
    });
  }
}

export const shareLinkKind: SiteListKind<
  'shareLinks',
  Config,
  DesiredShareLink,
  LiveShareLink,
  ShareLinkOp,
  'share-link'
> = {
  kind: 'share-link',
  key: 'shareLinks',
  config: Config,
  describe: "Optional. Omitted: the site's share links are not read or changed.",
  docs: { 'sites[].shareLinks[]': { title: 'share links', identity: '`name` within the site' } },
  unique: { what: 'share link', key: 'name', pinned: true },
  normalize: (l) => defined({ name: l.name, id: l.id, previously: l.previously, active: l.active }),
  credentials,
  emulator,
  read: {
    list,
    live: (l: Answer): LiveShareLink => ({ id: l.id, name: l.name ?? '', active: l.active ?? true }),
  },
  diff,
  export: (live) => {
    const dup = duplicatesOf(live.map((x) => x.name));
    return live.map((x) => ({ name: x.name, ...(dup.has(x.name) ? { id: x.id } : {}), active: x.active }));
  },
  ops: {
    'create-share-link': {
      call: (op, r) => ({
        method: 'POST',
        route: LIST,
        params: { org: op.org, site: r.ref(op.site) },
        body: { name: op.name },
        expect: [201],
        answer: Answer,
        create: true,
        credentials,
      }),
      output: idOutput,
      adopt: {
        list: (op, r) => list(op.org, r.ref(op.site)),
        find: (l: Answer, op) => l.name === op.name,
        output: idOutput,
      },
    },
    'update-share-link': {
      call: (op, r) => ({
        method: 'PATCH',
        route: ROUTE,
        params: { org: op.org, site: r.ref(op.site), link: r.ref(op.shareLink) },
        body: r.patch(op.patch),
        expect: [200],
        credentials,
      }),
    },
    'delete-share-link': {
      call: (op, r, caps) =>
        deleteCall(ROUTE, { org: op.org, site: r.ref(op.site), link: r.ref(op.shareLink) }, caps),
    },
  },
  examples: {
    pairs: [
      {
        config: { name: 'preview', active: false },
        seed: { name: 'preview', active: false },
        changed: { name: 'preview', active: true },
      },
      {
        config: { name: 'partner' },
        seed: { name: 'partner', active: true },
        changed: { name: 'partner-2026', previously: ['partner'] },
      },
    ],
  } satisfies KindExamples<Config>,
};
