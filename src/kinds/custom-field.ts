import { z } from 'zod';
import { kindDrafts } from '../diff/builder.js';
import { countLive, type DiffContext } from '../diff/context.js';
import { changedFields } from '../diff/draft.js';
import type { Patch } from '../model/change.js';
import { defined } from './fields.js';
import { deleteCall } from './types.js';
import type { ListKind } from './shapes.js';
import type { KindExamples } from './examples.js';

/** Organization custom fields, by name. Everything docsync knows about the kind. */

export const customFieldTypes = [
  'text',
  'number',
  'boolean',
  'tags',
  'select:multi',
  'select:single',
] as const;
export type CustomFieldType = (typeof customFieldTypes)[number];

export const customFieldNamePattern = /^[a-z_\-0-9]+$/;
export const CustomFieldName = z
  .string()
  .min(1)
  .max(50)
  .regex(customFieldNamePattern, 'must contain only a-z, 0-9, _ and -');

export type CustomFieldOp =
  | { type: 'create-custom-field'; org: string; field: DesiredCustomField }
  | { type: 'update-custom-field'; org: string; name: string; patch: Patch }
  | { type: 'delete-custom-field'; org: string; name: string };

const Config = z.strictObject({
  name: CustomFieldName.describe('Identity of the field: a-z, 0-9, _ and -, 1 to 50 characters.'),
  type: z.enum(customFieldTypes),
  title: z.string().max(100).optional(),
  description: z.string().max(200).optional(),
  placeholder: z.string().max(100).optional(),
  options: z.array(z.string().min(1).max(40)).min(1).max(50).optional(),
});
type Config = z.infer<typeof Config>;

export type DesiredCustomField = {
  name: string;
  type: CustomFieldType;
  title?: string;
  description?: string;
  placeholder?: string;
  options?: string[];
};

export type LiveCustomField = {
  name: string;
  type: CustomFieldType;
  title: string | null;
  description: string | null;
  placeholder: string | null;
  options: string[] | null;
};

const nullish = <T extends z.ZodType>(t: T) => t.nullable().optional();
const Answer = z.looseObject({
  id: z.string().optional(),
  name: z.string(),
  type: z.enum(customFieldTypes),
  title: nullish(z.string()),
  description: nullish(z.string()),
  placeholder: nullish(z.string()),
  options: nullish(z.array(z.string())),
});
type Answer = z.infer<typeof Answer>;

const LIST = '/orgs/{org}/custom-fields';
const ROUTE = '/orgs/{org}/custom-fields/{name}';
const address = (org: string, name: string) => `${org}/custom-fields/${name}`;
const list = (org: string) => ({ route: LIST, params: { org }, item: Answer });
const output = (f: Answer) => ({ id: f.id ?? f.name });
const UPDATABLE = ['title', 'description', 'placeholder', 'options'] as const;

/** The key other kinds find a field's creation or update by (its values depend on it). */
export const fieldChangeKey = (name: string) => `custom-field:${name}`;

/** A type change replaces the field (delete, then create): the API cannot update a type. */
function diff(ctx: DiffContext, desired: DesiredCustomField[], live: LiveCustomField[]): void {
  const { org } = ctx;
  const drafts = kindDrafts<CustomFieldOp>(ctx, 'custom-field');
  const liveByName = new Map<string, LiveCustomField>();
  for (const f of live) liveByName.set(f.name, f);
  countLive(ctx, 'custom-field', live.length);
  // The field's creation, made only where one is planned (no closure per field: issue 33).
  const create = (d: DesiredCustomField, addr: string, deps: string[] = []) => {
    const field = defined({
      name: d.name,
      type: d.type,
      title: d.title,
      description: d.description,
      placeholder: d.placeholder,
      options: d.options,
    });
    const key = drafts.create({
      address: addr,
      after: { ...field },
      deps,
      op: { type: 'create-custom-field', org, field },
    });
    ctx.dependedOn.set(fieldChangeKey(d.name), key);
  };
  for (const d of desired) {
    const addr = address(org, d.name);
    const l = liveByName.get(d.name);
    if (!l) {
      create(d, addr);
      continue;
    }
    if (l.type !== d.type) {
      const del = drafts.delete({
        address: addr,
        before: { type: l.type },
        note: `replaced: the type changes from ${l.type} to ${d.type}, which the API cannot update; values of this field are lost`,
        op: { type: 'delete-custom-field', org, name: d.name },
      });
      create(d, addr, [del]);
      continue;
    }
    const changed = changedFields(d, l, UPDATABLE);
    if (changed) {
      const key = drafts.update({
        address: addr,
        ...changed,
        op: { type: 'update-custom-field', org, name: d.name, patch: changed.after },
      });
      ctx.dependedOn.set(fieldChangeKey(d.name), key);
    }
  }
  const wanted = new Set(desired.map((d) => d.name));
  for (const l of live) {
    if (wanted.has(l.name)) continue;
    const addr = address(org, l.name);
    drafts.prune({
      address: addr,
      before: { type: l.type },
      op: { type: 'delete-custom-field', org, name: l.name },
    });
  }
}

export const customFieldKind: ListKind<
  'customFields',
  Config,
  DesiredCustomField,
  LiveCustomField,
  CustomFieldOp,
  'custom-field'
> = {
  kind: 'custom-field',
  key: 'customFields',
  config: Config,
  docs: {
    'customFields[]': {
      title: 'organization custom fields',
      identity: '`name`',
      notes: [
        '`options` only for `select:single`, `select:multi` and `tags`. Changing `type` replaces the field (delete, then create) and its values are set again.',
      ],
      example: [
        { name: 'owner', type: 'text', title: 'Owner' },
        { name: 'lifecycle', type: 'select:single', options: ['draft', 'live', 'deprecated'] },
      ],
    },
  },
  unique: { what: 'custom field', key: 'name' },
  check: (f, { report }) => {
    if (f.options && (f.type === 'text' || f.type === 'number' || f.type === 'boolean'))
      report(['options'], `options apply only to select and tags fields, not ${f.type}`);
  },
  normalize: (f) =>
    defined({
      name: f.name,
      type: f.type,
      title: f.title,
      description: f.description,
      placeholder: f.placeholder,
      options: f.options,
    }),
  lookup: { target: 'custom-field', noun: 'custom field', names: (f: LiveCustomField) => [f.name] },
  reads: [
    {
      list,
      live: (f: Answer): LiveCustomField => ({
        name: f.name,
        type: f.type,
        title: f.title ?? null,
        description: f.description ?? null,
        placeholder: f.placeholder ?? null,
        options: f.options ?? null,
      }),
    },
  ],
  absentIn: ['current'],
  absent: (caps) =>
    `custom fields are not part of the current API (--api-flavor current); remove customFields or use ${caps.otherwise}`,
  diff,
  diffPhase: 'first',
  export: {
    file: 'custom-fields.yaml',
    header: 'Custom fields',
    entries: (live) =>
      live?.map((f) =>
        defined({
          name: f.name,
          type: f.type,
          title: f.title ?? undefined,
          description: f.description ?? undefined,
          placeholder: f.placeholder ?? undefined,
          options: f.options ?? undefined,
        }),
      ),
  },
  ops: {
    'create-custom-field': {
      call: (op) => ({
        method: 'POST',
        route: LIST,
        params: { org: op.org },
        body: op.field,
        expect: [201],
        answer: Answer,
        create: true,
      }),
      output,
      adopt: { list: (op) => list(op.org), find: (f: Answer, op) => f.name === op.field.name, output },
    },
    'update-custom-field': {
      call: (op) => ({
        method: 'PATCH',
        route: ROUTE,
        params: { org: op.org, name: op.name },
        body: op.patch,
        expect: [200],
        answer: Answer,
      }),
    },
    'delete-custom-field': {
      call: (op, _r, caps) => deleteCall(ROUTE, { org: op.org, name: op.name }, caps),
    },
  },
  examples: {
    pairs: [
      {
        config: { name: 'owner', type: 'text', title: 'Owner' },
        seed: { name: 'owner', type: 'text', title: 'Owner' },
        changed: { name: 'owner', type: 'text', title: 'Owning team' },
      },
      {
        config: { name: 'tier', type: 'select:single', options: ['gold', 'silver'] },
        seed: { name: 'tier', type: 'select:single', options: ['gold', 'silver'] },
        changed: { name: 'tier', type: 'select:single', options: ['gold', 'silver', 'bronze'] },
      },
    ],
  } satisfies KindExamples<Config>,
};
