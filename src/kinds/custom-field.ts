import { CustomField } from '../api/schema.js';
import type { Patch } from '../model/change.js';
import type { CustomFieldType } from '../model/kinds.js';
import { deleteCall, type KindModule } from './types.js';

export type CustomFieldOp =
  | {
      type: 'create-custom-field';
      org: string;
      field: {
        name: string;
        type: CustomFieldType;
        title?: string;
        description?: string;
        placeholder?: string;
        options?: string[];
      };
    }
  | { type: 'update-custom-field'; org: string; name: string; patch: Patch }
  | { type: 'delete-custom-field'; org: string; name: string };

const LIST = '/orgs/{org}/custom-fields';
const ROUTE = `${LIST}/{name}`;
const output = (f: CustomField) => ({ id: f.id ?? f.name });

/** An organization's custom field, by name (the API addresses it by name). */
export const customFieldKind: KindModule<CustomFieldOp> = {
  kind: 'custom-field',
  ops: {
    'create-custom-field': {
      call: (op) => ({
        method: 'POST',
        route: LIST,
        params: { org: op.org },
        body: op.field,
        expect: [201],
        answer: CustomField,
        create: true,
      }),
      output,
      adopt: {
        list: (op) => ({ route: LIST, params: { org: op.org }, item: CustomField }),
        find: (f: CustomField, op) => f.name === op.field.name,
        output,
      },
    },
    'update-custom-field': {
      call: (op) => ({
        method: 'PATCH',
        route: ROUTE,
        params: { org: op.org, name: op.name },
        body: op.patch,
        expect: [200],
        answer: CustomField,
      }),
    },
    'delete-custom-field': {
      call: (op, _r, caps) => deleteCall(ROUTE, { org: op.org, name: op.name }, caps),
    },
  },
};
