import { z } from 'zod';
import { nullish } from '../api/schema.js';
import type { ConfigFile } from '../config/schema.js';
import type { Patch, Ref } from '../model/change.js';
import type { DesiredSite, DesiredSiteSpace } from '../model/desired.js';
import { defined } from './fields.js';
import { deleteCall, idOutput, type KindModule } from './types.js';

/** The API's answer for one (lenient: unknown fields allowed). */
export const Site = z.looseObject({
  id: z.string(),
  title: z.string(),
  visibility: z.enum(['public', 'unlisted', 'share-link', 'visitor-auth']),
  basename: nullish(z.string()),
  agentsContext: nullish(z.enum(['included', 'excluded'])),
  adaptiveContent: nullish(z.looseObject({ enabled: z.boolean() })),
  proxy: nullish(z.looseObject({ origin: z.string() })),
});
export type Site = z.infer<typeof Site>;

export type SiteOp =
  | { type: 'create-site'; org: string; title: string; visibility?: string }
  | { type: 'update-site'; org: string; site: Ref; patch: Patch }
  | { type: 'delete-site'; org: string; site: Ref };

const ROUTE = '/orgs/{org}/sites/{site}';

/** A site of an organization, by title (or pinned id). */
type Entry = NonNullable<ConfigFile['sites']>[number];
type SiteSpaceEntry = NonNullable<Entry['spaces']>[number];

const siteSpace = (s: SiteSpaceEntry): DesiredSiteSpace => ({
  space: s.space,
  ...(s.path !== undefined ? { path: s.path } : {}),
  ...(s.condition !== undefined ? { condition: s.condition } : {}),
  ...(s.default !== undefined ? { default: s.default } : {}),
});

/** A site's entry, normalized with its structure; `kinds`: its facets and lists, by key. */
function normalize(s: Entry, kinds: Record<string, unknown>): DesiredSite {
  return defined({
    title: s.title,
    id: s.id,
    previously: s.previously,
    visibility: s.visibility,
    basename: s.basename,
    agentsContext: s.agentsContext,
    adaptiveContent: s.adaptiveContent,
    proxy: s.proxy,
    ...kinds,
    sections: s.sections?.map((sec) =>
      defined({
        path: sec.path,
        title: sec.title,
        icon: sec.icon,
        description: sec.description,
        condition: sec.condition,
        default: sec.default,
        spaces: sec.spaces.map(siteSpace),
      }),
    ),
    sectionGroups: s.sectionGroups?.map((g) =>
      defined({ title: g.title, id: g.id, previously: g.previously, icon: g.icon, sections: g.sections }),
    ),
    spaces: s.spaces?.map(siteSpace),
  }) as DesiredSite;
}

export const siteKind: KindModule<SiteOp> & { normalize: typeof normalize } = {
  kind: 'site',
  normalize,
  ops: {
    'create-site': {
      call: (op) => ({
        method: 'POST',
        route: '/orgs/{org}/sites',
        params: { org: op.org },
        body: { title: op.title, ...(op.visibility ? { visibility: op.visibility } : {}) },
        expect: [201],
        answer: Site,
        create: true,
      }),
      output: idOutput,
      adopt: {
        list: (op) => ({ route: '/orgs/{org}/sites', params: { org: op.org }, item: Site }),
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
};
