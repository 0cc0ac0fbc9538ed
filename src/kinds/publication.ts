import type { Ref } from '../model/change.js';
import type { KindModule } from './types.js';

export type PublicationOp =
  { type: 'publish-site'; org: string; site: Ref } | { type: 'unpublish-site'; org: string; site: Ref };

const call = (route: string) => (op: PublicationOp, r: { ref: (x: Ref) => string }) => ({
  method: 'POST' as const,
  route,
  params: { org: op.org, site: r.ref(op.site) },
  expect: [200],
});

/** Whether a site is published (today's API: publish and unpublish calls). */
export const publicationKind: KindModule<PublicationOp> = {
  kind: 'site-publication',
  ops: {
    'publish-site': { call: call('/orgs/{org}/sites/{site}/publish') },
    'unpublish-site': { call: call('/orgs/{org}/sites/{site}/unpublish') },
  },
};
