import type { Ref } from '../model/change.js';
import type { KindModule } from './types.js';

export type AdaptiveSchemaOp = {
  type: 'set-adaptive-schema';
  org: string;
  site: Ref;
  jsonSchema: Record<string, unknown>;
};

/** The JSON Schema of a site's visitor claims: one object, replaced whole. */
export const adaptiveSchemaKind: KindModule<AdaptiveSchemaOp> = {
  kind: 'site-adaptive-schema',
  ops: {
    'set-adaptive-schema': {
      call: (op, r) => ({
        method: 'PUT',
        route: '/orgs/{org}/sites/{site}/adaptive-schema',
        params: { org: op.org, site: r.ref(op.site) },
        body: { jsonSchema: op.jsonSchema },
        expect: [200],
      }),
    },
  },
};
