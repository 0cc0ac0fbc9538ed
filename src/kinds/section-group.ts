import { z } from 'zod';
import { nullish } from '../api/schema.js';
import type { Patch, Position, Ref } from '../model/change.js';
import { deleteCall, idOutput, structureMove, type KindModule } from './types.js';

/** The API's answer for one (lenient: unknown fields allowed). */
export const SiteSectionGroup = z.looseObject({
  id: z.string(),
  title: z.string(),
  icon: nullish(z.string()),
});
export type SiteSectionGroup = z.infer<typeof SiteSectionGroup>;

export type SectionGroupOp =
  | {
      type: 'create-section-group';
      org: string;
      site: Ref;
      title: string;
      icon?: string | null;
      sections: Ref[];
    }
  | { type: 'update-section-group'; org: string; site: Ref; group: Ref; patch: Patch }
  | { type: 'delete-section-group'; org: string; site: Ref; group: Ref }
  | { type: 'move-section-group'; org: string; site: Ref; group: Ref; position: Position };

const LIST = '/orgs/{org}/sites/{site}/section-groups';
const ROUTE = '/orgs/{org}/sites/{site}/section-groups/{group}';

/** A group of sections of a site, by title (or pinned id). */
export const sectionGroupKind: KindModule<SectionGroupOp> = {
  kind: 'site-section-group',
  ops: {
    'create-section-group': {
      call: (op, r) => ({
        method: 'POST',
        route: LIST,
        params: { org: op.org, site: r.ref(op.site) },
        body: {
          title: op.title,
          ...(op.icon !== undefined ? { icon: op.icon } : {}),
          sections: op.sections.map(r.ref),
        },
        expect: [201],
        answer: SiteSectionGroup,
        create: true,
      }),
      output: idOutput,
      adopt: {
        list: (op, r) => ({
          route: LIST,
          params: { org: op.org, site: r.ref(op.site) },
          item: SiteSectionGroup,
        }),
        find: (g: SiteSectionGroup, op) => g.title === op.title,
        output: idOutput,
      },
    },
    'update-section-group': {
      call: (op, r) => ({
        method: 'PATCH',
        route: ROUTE,
        params: { org: op.org, site: r.ref(op.site), group: r.ref(op.group) },
        body: r.patch(op.patch),
        expect: [200, 204],
      }),
    },
    'delete-section-group': {
      call: (op, r, caps) =>
        deleteCall(ROUTE, { org: op.org, site: r.ref(op.site), group: r.ref(op.group) }, caps),
    },
    'move-section-group': {
      call: (op, r, caps) =>
        structureMove(
          caps,
          r,
          { org: op.org, site: op.site, item: op.group, position: op.position },
          { type: 'site-section-group' },
          {
            route: '/orgs/{org}/sites/{site}/section-groups/{group}/move',
            param: 'group',
            type: 'site-section',
            key: 'id',
          },
        ),
    },
  },
};
