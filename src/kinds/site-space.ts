import { z } from 'zod';
import { nullish } from '../model/schema.js';
import type { Patch, Position, Ref } from '../model/change.js';
import { deleteCall, idOutput, structureMove, type KindModule } from './types.js';

/** The API's answer for one (lenient: unknown fields allowed). */
export const SiteSpace = z.looseObject({
  object: z.literal('site-space').optional(),
  id: z.string(),
  path: z.string(),
  section: nullish(z.string()),
  space: z.looseObject({ id: z.string() }),
  default: nullish(z.boolean()),
  condition: nullish(z.string()),
  draft: nullish(z.boolean()),
  hidden: nullish(z.boolean()),
  pageId: nullish(z.string()),
});
export type SiteSpace = z.infer<typeof SiteSpace>;

export type SiteSpaceOp =
  | { type: 'create-site-space'; org: string; site: Ref; spaceId: string; section?: Ref; draft?: boolean }
  | { type: 'update-site-space'; org: string; site: Ref; siteSpace: Ref; patch: Patch }
  | { type: 'delete-site-space'; org: string; site: Ref; siteSpace: Ref }
  | { type: 'move-site-space'; org: string; site: Ref; siteSpace: Ref; position: Position }
  | {
      type: 'set-site-space-customization';
      org: string;
      site: Ref;
      siteSpace: Ref;
      /** The overrides to set: the changed keys only, as a nested document (PATCH sets those). */
      overrides: Record<string, unknown>;
    }
  | { type: 'delete-site-space-customization'; org: string; site: Ref; siteSpace: Ref };

const LIST = '/orgs/{org}/sites/{site}/site-spaces';
const ROUTE = '/orgs/{org}/sites/{site}/site-spaces/{siteSpace}';
/** A site space's customization overrides (today's API). */
export const SITE_SPACE_CUSTOMIZATION = '/orgs/{org}/sites/{site}/site-spaces/{siteSpace}/customization';

/** A site space's address in the plan, under its section or its site. */
export const siteSpaceAddress = (parent: string, space: string) => `${parent}/spaces/${space}`;

/** A space published in a site (in a section, or at the site's root), by space id. */
export const siteSpaceKind: KindModule<SiteSpaceOp, 'site-space'> = {
  kind: 'site-space',
  ops: {
    'create-site-space': {
      call: (op, r) => ({
        method: 'POST',
        route: LIST,
        params: { org: op.org, site: r.ref(op.site) },
        body: {
          spaceId: op.spaceId,
          ...(op.section ? { sectionId: r.ref(op.section) } : {}),
          ...(op.draft ? { draft: true } : {}),
        },
        expect: [201],
        answer: SiteSpace,
        create: true,
      }),
      output: idOutput,
      adopt: {
        list: (op, r) => ({ route: LIST, params: { org: op.org, site: r.ref(op.site) }, item: SiteSpace }),
        find: (s: SiteSpace, op) => s.space.id === op.spaceId,
        output: idOutput,
      },
    },
    'update-site-space': {
      call: (op, r) => ({
        method: 'PATCH',
        route: ROUTE,
        params: { org: op.org, site: r.ref(op.site), siteSpace: r.ref(op.siteSpace) },
        body: r.patch(op.patch),
        expect: [200, 204],
      }),
    },
    'set-site-space-customization': {
      absentIn: ['seed'],
      call: (op, r) => ({
        method: 'PATCH',
        route: SITE_SPACE_CUSTOMIZATION,
        params: { org: op.org, site: r.ref(op.site), siteSpace: r.ref(op.siteSpace) },
        body: op.overrides,
        expect: [200],
      }),
    },
    'delete-site-space-customization': {
      absentIn: ['seed'],
      // 205: removed; 204: there were none (already done, by a retry or by hand).
      call: (op, r) => ({
        method: 'DELETE',
        route: SITE_SPACE_CUSTOMIZATION,
        params: { org: op.org, site: r.ref(op.site), siteSpace: r.ref(op.siteSpace) },
        expect: [204, 205],
      }),
    },
    'delete-site-space': {
      call: (op, r, caps) =>
        deleteCall(ROUTE, { org: op.org, site: r.ref(op.site), siteSpace: r.ref(op.siteSpace) }, caps),
    },
    'move-site-space': {
      call: (op, r, caps) =>
        structureMove(
          caps,
          r,
          { org: op.org, site: op.site, item: op.siteSpace, position: op.position },
          { type: 'site-space' },
          {
            route: '/orgs/{org}/sites/{site}/site-spaces/{siteSpace}/move',
            param: 'siteSpace',
            type: 'site-space',
            key: 'siteSpace',
          },
        ),
    },
  },
};
