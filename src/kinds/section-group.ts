import { z } from 'zod';
import { nullish } from '../model/schema.js';
import type { Patch, Position, Ref } from '../model/change.js';
import type { ApiCapabilities } from '../model/capabilities.js';
import { sectionRoute } from './site-section.js';
import { Localized } from './fields.js';
import {
  deleteCall,
  idOutput,
  structureMove,
  type ApiCall,
  type KindModule,
  type Resolver,
} from './types.js';

/** The API's answer for one (lenient: unknown fields allowed). */
export const SiteSectionGroup = z.looseObject({
  id: z.string(),
  title: z.string(),
  icon: nullish(z.string()),
  draft: nullish(z.boolean()),
  localizedTitle: nullish(Localized),
  /** Today's API: the group it is nested in. */
  sectionGroup: nullish(z.string()),
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
      /** Today's API: the group to nest it in (absent: the site's root). */
      parent?: Ref;
      draft?: boolean;
    }
  | { type: 'update-section-group'; org: string; site: Ref; group: Ref; patch: Patch }
  | { type: 'delete-section-group'; org: string; site: Ref; group: Ref }
  | { type: 'move-section-group'; org: string; site: Ref; group: Ref; position: Position };

const LIST = '/orgs/{org}/sites/{site}/section-groups';
const ROUTE = '/orgs/{org}/sites/{site}/section-groups/{group}';

/** A group's address in the plan. */
export const groupAddress = (site: string, title: string) => `${site}/section-groups/${title}`;

/** A group of sections of a site, by title (or pinned id). */
export const sectionGroupKind: KindModule<SectionGroupOp, 'site-section-group'> = {
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
          ...(op.parent ? { parent: r.ref(op.parent) } : {}),
          ...(op.draft ? { draft: true } : {}),
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

/**
 * A section's membership of a group: a relation of the group, so it lives in the group's module.
 */
export type GroupMembershipOp =
  | { type: 'add-group-section'; org: string; site: Ref; group: Ref; section: Ref }
  | { type: 'remove-group-section'; org: string; site: Ref; group: Ref; section: Ref };

const MEMBERS = '/orgs/{org}/sites/{site}/section-groups/{group}/sections';

/** Today's API: membership is a field of the section (`siteSectionGroupId`). */
function sectionField(op: GroupMembershipOp, r: Resolver, group: string | null): ApiCall {
  return {
    method: 'PATCH',
    route: sectionRoute,
    params: { org: op.org, site: r.ref(op.site), section: r.ref(op.section) },
    body: { siteSectionGroupId: group },
    expect: [200, 204],
  };
}

const memberParams = (op: GroupMembershipOp, r: Resolver) => ({
  org: op.org,
  site: r.ref(op.site),
  group: r.ref(op.group),
});

const byField = (caps: ApiCapabilities) => caps.sectionJoinsGroup === 'section-field';

/** A section's membership of a group: the group's endpoint (api.md) or the section's field. */
export const groupMembershipKind: KindModule<GroupMembershipOp, 'section-group-membership'> = {
  kind: 'section-group-membership',
  relation: true,
  ops: {
    'add-group-section': {
      call: (op, r, caps) =>
        byField(caps)
          ? sectionField(op, r, r.ref(op.group))
          : {
              method: 'POST',
              route: MEMBERS,
              params: memberParams(op, r),
              body: { sectionId: r.ref(op.section) },
              expect: [200, 201],
            },
    },
    'remove-group-section': {
      call: (op, r, caps) =>
        byField(caps)
          ? sectionField(op, r, null)
          : deleteCall(
              '/orgs/{org}/sites/{site}/section-groups/{group}/sections/{section}',
              { ...memberParams(op, r), section: r.ref(op.section) },
              caps,
            ),
    },
  },
};
