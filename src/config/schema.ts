import { z } from 'zod';
import type { listKinds } from '../kinds/registry.js';
import { anyListKinds, collectionKind, objectKinds, resourceKinds, spaceFacets } from '../kinds/registry.js';
import type { AnyListKind } from '../kinds/shapes.js';
import { SyncWindowSchema } from './sync-windows-schema.js';
import { addressGlobProblem } from '../model/address-glob.js';
import { ACCESS_RULES, RULE_TEXT } from '../access/rules.js';
import { brokenLinksPolicies } from '../diff/site-paths.js';

/** One access rule of `policy.rules` (src/access/rules.ts): its name, and `max` for `maxAdmins`. */
const AccessRuleSchema = z
  .strictObject({
    rule: z.enum(ACCESS_RULES).describe(ACCESS_RULES.map((r) => `\`${r}\`: ${RULE_TEXT[r]}.`).join(' ')),
    max: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe('For `maxAdmins` (required there): the most admin grants.'),
  })
  .superRefine((r, ctx) => {
    if (r.rule === 'maxAdmins' && r.max === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['max'],
        message: 'maxAdmins needs max (the most admin grants per object)',
      });
    if (r.rule !== 'maxAdmins' && r.max !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['max'],
        message: `${r.rule} takes no max (only maxAdmins does)`,
      });
  });

/** An address or glob (`sites/Docs/**`); the organization prefix is optional. */
const AddressGlob = z
  .string()
  .superRefine((value, ctx) => {
    const problem = addressGlobProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .describe(
    'An address or glob: `*` within a segment, `**` for any number of segments; the organization prefix is optional.',
  );

/** A count, or a percentage of the managed live resources (`"5%"`). */
const ThresholdValue = z.union([
  z.number().int().min(0),
  z
    .string()
    .regex(/^\d+(\.\d+)?%$/, 'expected a count such as 10 or a percentage such as "5%"')
    .refine((v) => Number.parseFloat(v) <= 100, 'expected a percentage from 0% to 100%'),
]);

/** A threshold for the organization, or one per kind with a `default`. */
function thresholds(what: string) {
  return z.union([
    ThresholdValue,
    z
      .partialRecord(z.enum(['default', ...resourceKinds]), ThresholdValue)
      .describe(`\`default\` for the organization, and a ${what} per kind name (\`team: 2\`).`),
  ]);
}

export const PolicySchema = z
  .strictObject({
    prune: z
      .boolean()
      .optional()
      .describe('Delete live resources of managed kinds that the config omits. Default false.'),
    maxDeletes: thresholds('limit of deletions')
      .optional()
      .describe(
        'A plan with more deletions is refused unless --allow-deletes N. A count (10), a percentage of the managed live resources ("5%", applied from 10 of them up; below, the count 10 applies), or per kind ({ default: "5%", team: 2 }). Default 10.',
      ),
    maxUpdates: thresholds('limit of updates')
      .optional()
      .describe(
        'A plan with more updates is refused unless --allow-updates N. A count, a percentage of the managed live resources ("30%", applied from 10 of them up), or per kind. Default: no limit.',
      ),
    protect: z
      .array(AddressGlob)
      .optional()
      .describe(
        'Resources no plan may delete or replace, even once their entry is removed from the config: addresses or globs ("sites/Developer Docs", "teams/*"). No flag overrides it.',
      ),
    ignore: z
      .array(
        z
          .strictObject({
            kind: z.enum(resourceKinds).optional().describe('The kind of resource the rule applies to.'),
            address: AddressGlob.optional().describe('Only resources whose address matches this glob.'),
            fields: z
              .array(z.string().min(1))
              .min(1)
              .describe('Fields neither compared nor written after creation (a creation still sends them).'),
          })
          .refine(
            (r) => r.kind !== undefined || r.address !== undefined,
            'expected a kind, an address, or both',
          ),
      )
      .optional()
      .describe(
        'Fields docsync leaves alone after creation, for a kind and/or an address glob; the plan lists the live differences it ignored.',
      ),
    pruneMembers: z
      .boolean()
      .optional()
      .describe(
        "Remove organization members that `members` omits. Default false. `prune` never removes members; the token's own user is never removed.",
      ),
    minAdmins: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe(
        'A plan that would leave fewer admins than this (by removing or demoting members) is refused; no flag overrides it. Default 1.',
      ),
    rules: z
      .array(AccessRuleSchema)
      .optional()
      .describe(
        'Access rules checked offline by `validate` and `plan` against the `access` lists of spaces, collections and sites: each violation is an error at the entry or grant, naming the rule. Default: none.',
      ),
    brokenLinks: z
      .enum(brokenLinksPolicies)
      .optional()
      .describe(
        'What a plan that changes, moves or deletes published paths of sections and site spaces does (current API): redirect (default) plans the redirects that keep the old URLs working and refuses one it cannot redirect (a deleted path with no declared redirect or redirectFallback); refuse plans none itself and refuses every such path that no declared redirect covers; allow plans none and refuses none.',
      ),
    syncWindows: z
      .array(SyncWindowSchema)
      .optional()
      .describe(
        "When the daemon may apply (Argo CD's sync windows): an open deny window blocks apply, and when allow windows exist apply runs only inside one; manualSync lets a manual sync through. Drift is still reported. Default: no window, apply any time.",
      ),
  })
  .describe(
    'Safety policy for this organization. Omitted: prune false, maxDeletes 10, pruneMembers false and minAdmins 1 (the defaults of its keys); no maxUpdates, protect or ignore.',
  );

export const ConfigFileSchema = z
  .strictObject({
    organization: z.string().min(1).describe('The organization id.'),
    extends: z
      .array(z.string().min(1).max(1024))
      .max(20)
      .optional()
      .describe(
        'Base files (paths relative to this file, inside the repository) whose entries this organization takes; an entry here replaces the base entry with the same identity, and `policy`/`settings` merge key by key. A base file has no `organization`.',
      ),
    suspended: z
      .boolean()
      .optional()
      .describe(
        'true: the daemon applies nothing to this organization (drift is still checked and reported); `docsync resume` cannot lift it, only the config. Default false.',
      ),
    policy: PolicySchema.optional(),
    ...objectKindsShape(),
    ...listKindsShape((k) => k.configBefore === 'collections'),
    collections: z.array(collectionKind.config).optional(),
    ...listKindsShape((k) => k.configBefore === undefined),
    spaces: z.array(collectionKind.spaces.config.extend(spaceFacetsShape())).optional(),
    ...listKindsShape((k) => k.configBefore === 'end'),
  })
  .describe('A docsync configuration file (format v1): the desired state of one organization.');

export type ConfigFile = z.infer<typeof ConfigFileSchema>;

/** A base file (named by `extends`): a config file without `organization`, shared by organizations. */
export const BaseFileSchema = ConfigFileSchema.omit({ organization: true });

type ListKindsShape = {
  [K in (typeof listKinds)[number] as K['key']]: z.ZodOptional<z.ZodArray<K['config']>>;
};

type ObjectKindsShape = {
  [K in (typeof objectKinds)[number] as K['key']]: z.ZodOptional<K['config']>;
};

/** The keys of the object kinds (the organization's settings). */
function objectKindsShape(): ObjectKindsShape {
  return Object.fromEntries(objectKinds.map((k) => [k.key, k.config.optional()])) as ObjectKindsShape;
}

type SpaceFacetsShape = {
  [K in (typeof spaceFacets)[number] as K['key']]: z.ZodOptional<K['config']>;
};

/** The keys of a space's facets (its custom field values). */
function spaceFacetsShape(): SpaceFacetsShape {
  return Object.fromEntries(
    spaceFacets.map((k) => [k.key, k.config.optional().describe(k.describe)]),
  ) as SpaceFacetsShape;
}

/** The keys of the list kinds, each an optional list of its module's config entry. */
function listKindsShape(which: (kind: AnyListKind) => boolean): ListKindsShape {
  return Object.fromEntries(
    anyListKinds.filter(which).map((k) => {
      const list = z.array(k.config).optional();
      return [k.key, k.describe ? list.describe(k.describe) : list];
    }),
  ) as ListKindsShape;
}
