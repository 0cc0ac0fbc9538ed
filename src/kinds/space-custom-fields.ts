import type { CustomFieldValue } from '../model/kinds.js';
import type { KindModule } from './types.js';

export type SpaceCustomFieldsOp = {
  type: 'set-space-custom-fields';
  spaceId: string;
  values: Record<string, CustomFieldValue>;
};

/** The custom field values of one space: one call sets every value that differs. */
export const spaceCustomFieldsKind: KindModule<SpaceCustomFieldsOp> = {
  kind: 'space-custom-fields',
  ops: {
    'set-space-custom-fields': {
      call: (op) => ({
        method: 'PATCH',
        route: '/spaces/{space}/custom-fields',
        params: { space: op.spaceId },
        body: { values: Object.fromEntries(Object.entries(op.values).map(([k, v]) => [k, { value: v }])) },
        expect: [200, 204],
      }),
    },
  },
};
