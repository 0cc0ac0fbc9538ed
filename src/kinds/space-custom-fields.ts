import { z } from 'zod';
import { kindDrafts } from '../diff/builder.js';
import type { DiffContext } from '../diff/context.js';
import type { CustomFieldValue } from '../model/kinds.js';
import { same } from '../diff/draft.js';
import { listIn } from './list-in.js';
import { CustomFieldName, fieldChangeKey } from './custom-field.js';
import type { ApiCall, KindModule } from './types.js';
import type { Report, SpaceFacet } from './value-shapes.js';
import { dict } from '../model/dict.js';
import type { KindExamples } from './examples.js';

/** The custom field values of existing spaces: a facet of the space entry (`spaces[].customFields`). */

export type { CustomFieldValue };

export type SpaceCustomFieldsOp = {
  type: 'set-space-custom-fields';
  spaceId: string;
  values: Record<string, CustomFieldValue>;
};

/** The issue code of a value that does not fit its field. */
export const VALUE_ISSUE = 'custom-field-value';

const Value = z.union([z.string().max(256), z.number(), z.boolean(), z.array(z.string().max(256)), z.null()]);
const Config = z.record(CustomFieldName, Value);
type Values = Record<string, CustomFieldValue>;

const Answer = z.array(
  z.looseObject({
    customField: z.looseObject({ name: z.string() }),
    value: z
      .union([z.string(), z.number(), z.boolean(), z.array(z.string())])
      .nullable()
      .optional(),
  }),
);

const ROUTE = '/spaces/{space}/custom-fields';
const address = (org: string, space: string) => `${org}/spaces/${space}/custom-fields`;

type Field = { name: string; type: string; options?: string[] | undefined };

/** Does a value fit its field's type (and options)? */
function valueProblem(field: Field, value: CustomFieldValue): string | undefined {
  if (value === null) return undefined;
  const options = field.options;
  switch (field.type) {
    case 'number':
      return typeof value === 'number' ? undefined : `must be a number (the field is of type number)`;
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `must be true or false (the field is of type boolean)`;
    case 'tags':
      return Array.isArray(value) ? undefined : `must be a list of strings (the field is of type tags)`;
    case 'select:multi':
      if (!Array.isArray(value)) return 'must be a list of options (the field is of type select:multi)';
      if (options) {
        const bad = value.find((v) => !options.includes(v));
        if (bad !== undefined) return `"${bad}" is not one of the options: ${options.join(', ')}`;
      }
      return undefined;
    case 'select:single':
      if (typeof value !== 'string') return 'must be one option (the field is of type select:single)';
      if (options && !options.includes(value))
        return `"${value}" is not one of the options: ${options.join(', ')}`;
      return undefined;
    default:
      return typeof value === 'string' ? undefined : `must be a string (the field is of type ${field.type})`;
  }
}

/** The fields an organization's files declare, indexed once per organization (not per space). */
const declaredIndex = new WeakMap<object[], { managed: boolean; byName: Map<string, Field> }>();
function declaredFields(configs: object[]): { managed: boolean; byName: Map<string, Field> } {
  let index = declaredIndex.get(configs);
  if (!index) {
    const declared = configs.flatMap((c) => (listIn(c, 'customFields') ?? []) as Field[]);
    index = {
      managed: configs.some((c) => listIn(c, 'customFields') !== undefined),
      byName: new Map(declared.map((f) => [f.name, f])),
    };
    declaredIndex.set(configs, index);
  }
  return index;
}

/** Each value must name a declared field (when fields are managed) and fit it. */
function check(values: Values, configs: object[], report: Report): void {
  const { managed, byName } = declaredFields(configs);
  for (const [name, value] of Object.entries(values)) {
    const field = byName.get(name);
    if (!field) {
      if (managed)
        report(
          [name],
          'unknown-reference',
          `no custom field named "${name}" is declared in customFields`,
          true,
        );
      continue;
    }
    const problem = valueProblem(field, value);
    if (problem) report([name], VALUE_ISSUE, problem);
  }
}

/** One change per space, carrying only the values that differ. */
function diff(ctx: DiffContext, desired: { id: string; value: Values }[], live: Map<string, Values>): void {
  const drafts = kindDrafts<SpaceCustomFieldsOp>(ctx, 'space-custom-fields');
  for (const d of desired) {
    const current = live.get(d.id) ?? dict<CustomFieldValue>();
    const before = dict<unknown>();
    const after = dict<unknown>();
    const deps: string[] = [];
    for (const [name, value] of Object.entries(d.value)) {
      const have = current[name] ?? null;
      const fieldChange = ctx.dependedOn.get(fieldChangeKey(name));
      // A replaced field loses its values: set them again even when they looked equal.
      const replaced =
        fieldChange !== undefined && ctx.drafts.get(fieldChange)?.action === 'create' && have !== null;
      if (same(value, have) && !replaced) continue;
      before[name] = replaced ? null : have;
      after[name] = value;
      if (fieldChange) deps.push(fieldChange);
    }
    if (Object.keys(after).length === 0) continue;
    const addr = address(ctx.org, d.id);
    drafts.update({
      address: addr,
      before,
      after,
      deps,
      op: { type: 'set-space-custom-fields', spaceId: d.id, values: after as Values },
    });
  }
}

const ops: KindModule<SpaceCustomFieldsOp>['ops'] = {
  'set-space-custom-fields': {
    call: (op) => ({
      method: 'PATCH',
      route: ROUTE,
      params: { space: op.spaceId },
      body: { values: Object.fromEntries(Object.entries(op.values).map(([k, v]) => [k, { value: v }])) },
      expect: [200, 204],
    }),
  },
};

export const spaceCustomFieldsKind: SpaceFacet<
  'customFields',
  Values,
  Values,
  SpaceCustomFieldsOp,
  'space-custom-fields'
> = {
  kind: 'space-custom-fields',
  key: 'customFields',
  config: Config,
  describe: 'Custom field values, by field name.',
  doc: {
    note: 'Custom field values must fit the declared field (`customFields` of the same organization): numbers for `number`, one option for `select:single`, a list of options for `select:multi`. Only the listed fields are managed. One change per space carries every value that differs.',
    example: { owner: 'platform-team' },
  },
  normalize: (values) => Object.assign(dict<CustomFieldValue>(), values),
  // Values of fields the config declares are checked offline (validate); the others name live fields.
  references: (values: Values, space: string, org: { customFields?: unknown[] }) =>
    org.customFields !== undefined
      ? []
      : Object.keys(values).map((name) => ({
          target: 'custom-field',
          id: name,
          path: [name],
          holder: `space ${space}`,
          onKey: true,
        })),
  check,
  absentIn: ['current'],
  absent: (caps) =>
    `custom fields are not part of the current API (--api-flavor current); remove customFields or use ${caps.otherwise}`,
  read: (space): ApiCall => ({
    method: 'GET',
    route: ROUTE,
    params: { space },
    expect: [200],
    answer: Answer,
  }),
  live: (entries: z.infer<typeof Answer>) => {
    const values = dict<CustomFieldValue>();
    for (const e of entries)
      if (e.value !== undefined && e.value !== null) values[e.customField.name] = e.value;
    return values;
  },
  diff,
  // Values are exported where the organization's fields are (a value needs its declared field).
  export: (values, org) =>
    listIn(org, 'customFields') && values && Object.keys(values).length > 0 ? values : undefined,
  ops,
  examples: {
    pairs: [
      {
        config: { owner: 'docs', tier: null },
        seed: { customFields: { owner: 'docs' } },
        changed: { owner: 'platform', tier: 'gold' },
      },
    ],
    // A value names a field declared in the organization.
    needs: {
      config: {
        customFields: [
          { name: 'owner', type: 'text' },
          { name: 'tier', type: 'text' },
        ],
      },
      seed: {
        customFields: [
          { name: 'owner', type: 'text' },
          { name: 'tier', type: 'text' },
        ],
      },
    },
  } satisfies KindExamples<z.infer<typeof Config>>,
};
