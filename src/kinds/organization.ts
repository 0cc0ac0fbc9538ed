import { Organization } from '../api/schema.js';
import type { Patch } from '../model/change.js';
import type { KindModule } from './types.js';

export type OrganizationOp = { type: 'update-organization'; org: string; patch: Patch };

/** The settings of an organization: one object, updated in place. */
export const organizationKind: KindModule<OrganizationOp> = {
  kind: 'organization',
  ops: {
    'update-organization': {
      call: (op, r) => ({
        method: 'PATCH',
        route: '/orgs/{org}',
        params: { org: op.org },
        body: r.patch(op.patch),
        expect: [200],
        answer: Organization,
      }),
    },
  },
};
