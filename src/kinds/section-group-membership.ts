import type { Ref } from '../model/change.js';
import type { ApiCapabilities } from '../model/capabilities.js';
import { deleteCall, type ApiCall, type KindModule, type Resolver } from './types.js';

export type GroupMembershipOp =
  | { type: 'add-group-section'; org: string; site: Ref; group: Ref; section: Ref }
  | { type: 'remove-group-section'; org: string; site: Ref; group: Ref; section: Ref };

const MEMBERS = '/orgs/{org}/sites/{site}/section-groups/{group}/sections';

/** Today's API: membership is a field of the section (`siteSectionGroupId`). */
function sectionField(op: GroupMembershipOp, r: Resolver, group: string | null): ApiCall {
  return {
    method: 'PATCH',
    route: '/orgs/{org}/sites/{site}/sections/{section}',
    params: { org: op.org, site: r.ref(op.site), section: r.ref(op.section) },
    body: { siteSectionGroupId: group },
    expect: [200, 204],
  };
}

const params = (op: GroupMembershipOp, r: Resolver) => ({
  org: op.org,
  site: r.ref(op.site),
  group: r.ref(op.group),
});

const byField = (caps: ApiCapabilities) => caps.sectionJoinsGroup === 'section-field';

/** A section's membership of a group: the group's endpoint (api.md) or the section's field. */
export const groupMembershipKind: KindModule<GroupMembershipOp> = {
  kind: 'section-group-membership',
  ops: {
    'add-group-section': {
      call: (op, r, caps) =>
        byField(caps)
          ? sectionField(op, r, r.ref(op.group))
          : {
              method: 'POST',
              route: MEMBERS,
              params: params(op, r),
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
              { ...params(op, r), section: r.ref(op.section) },
              caps,
            ),
    },
  },
};
