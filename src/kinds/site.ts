import { z } from 'zod';
import { nullish } from '../api/schema.js';
import type { Patch, Ref } from '../model/change.js';
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
export const siteKind: KindModule<SiteOp> = {
  kind: 'site',
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
