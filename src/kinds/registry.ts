import { collectionKind, type DesiredTree, type LiveTree } from './collection.js';
import { collectionGrantKind } from './collection-grant.js';
import { customFieldKind } from './custom-field.js';
import { inviteLinkKind } from './invite-link.js';
import { memberKind } from './member.js';
import { openApiSpecKind } from './openapi-spec.js';
import { organizationKind } from './organization.js';
import { samlProviderKind } from './saml-provider.js';
import { siteFacets, siteListKinds } from './site-parts.js';
import { structureKinds } from './site-structure.js';
import { siteKind } from './site.js';
import type { VALUE_ISSUE } from './space-custom-fields.js';
import { spaceFacets } from './space-facets.js';
import { spaceKind } from './space.js';
import { teamMembersKind } from './team-members.js';
import { teamKind } from './team.js';
import { translationKind } from './translation.js';
import type { ApiFlavor } from '../model/kinds.js';
import { absentHere, readOnlyHere, type KindModule, type Lookup, type OpDef, type OpDefs } from './types.js';
import type { AnyListKind, Lists, Optional } from './shapes.js';
import type { AnyObjectKind } from './value-shapes.js';

/**
 * The kinds that are lists directly under an organization, in the order they are diffed and
 * read: their config keys, desired and live lists are derived from these modules.
 */
export const listKinds = [
  memberKind,
  inviteLinkKind,
  openApiSpecKind,
  samlProviderKind,
  translationKind,
  customFieldKind,
  teamKind,
  siteKind,
] as const;

type ListKinds = (typeof listKinds)[number];
/** The desired organization's lists of list kinds: `openapi?: DesiredOpenApiSpec[]`… */
export type DesiredLists = Lists<ListKinds, 'D'>;
/** The live organization's lists of list kinds (undefined: not read). */
export type LiveLists = Lists<ListKinds, 'L'>;

/** The list kinds, loosely typed, for code that handles every one the same way. */
export const anyListKinds: readonly AnyListKind[] = listKinds;

/** Whether the plan diffs `kind` ahead of the other lists for these wanted entries (decision 43). */
export function diffsAhead(kind: AnyListKind, wanted: readonly unknown[] | undefined): boolean {
  return kind.diffSteps !== undefined && wanted !== undefined && (kind.diffsAlone?.(wanted as never) ?? true);
}

export { anySpaceFacets, spaceFacets } from './space-facets.js';
export { anySiteFacets, anySiteListKinds } from './site-parts.js';

/** The kinds that are one object per organization (its settings). */
export const objectKinds = [organizationKind] as const;

type ObjectKinds = (typeof objectKinds)[number];
/** The desired organization's objects (`settings?`). */
export type DesiredObjects = Optional<ObjectKinds, 'D'>;
/** The live organization's objects (undefined: not read). */
export type LiveObjects = Optional<ObjectKinds, 'L'>;

export const anyObjectKinds: readonly AnyObjectKind[] = objectKinds;

/** The registry: every kind docsync manages, one module each (decision 0020). */
const registry = [
  ...structureKinds,
  ...siteListKinds,
  ...spaceFacets,
  teamMembersKind,
  ...objectKinds,
  collectionKind,
  collectionGrantKind,
  spaceKind,
  ...listKinds,
  ...siteFacets,
] as const;

export const kindModules = registry as readonly KindModule<never>[];

/** The operations a module declares: the union its `ops` are typed over (each op's `call` takes one). */
type OpOf<K> = K extends { ops: infer D }
  ? { [T in keyof D]: D[T] extends { call: (op: infer O, ...rest: never[]) => unknown } ? O : never }[keyof D]
  : never;

/** Every operation a plan can hold: the union of the registered kinds' operations (pure data). */
export type KindOp = OpOf<(typeof registry)[number]>;
/** A module whose operations were not inferred would widen the plan's operation types: this fails to compile. */
const _opsAreLiterals: string extends KindOp['type'] ? never : true = true;

/** Every kind of resource docsync manages: the plan JSON carries these names (each module's `kind`). */
export type ResourceKind = (typeof registry)[number]['kind'];
export const resourceKinds: readonly ResourceKind[] = registry.map((k) => k.kind);
/** A module typed without its literal name would widen ResourceKind to string: this line then fails to compile. */
const _namesAreLiterals: string extends ResourceKind ? never : true = true;

/** The kinds a flavor of the API does not have (each module's `absentIn`). */
export function absentKinds(flavor: ApiFlavor): ReadonlySet<ResourceKind> {
  return new Set(kindModules.filter((k) => absentHere(k, { flavor })).map((k) => k.kind as ResourceKind));
}
export { absentHere, readOnlyHere };

/** The kinds whose route answers a different resource in a flavor (each module's `readOnlyIn`). */
export function readOnlyKinds(flavor: ApiFlavor): ReadonlySet<ResourceKind> {
  return new Set(kindModules.filter((k) => readOnlyHere(k, { flavor })).map((k) => k.kind as ResourceKind));
}

/** Kinds whose changes join or part two objects (not counted as deletions of resources). */
export const relationKinds: ReadonlySet<string> = new Set(
  kindModules.filter((k) => k.relation).map((k) => k.kind),
);

const opDefs = Object.fromEntries(kindModules.flatMap((k) => Object.entries(k.ops))) as OpDefs<KindOp>;

/** How an operation of the plan is carried out. */
export function opDef<O extends KindOp>(op: O): OpDef<O> {
  return (opDefs as Record<string, OpDef<O>>)[op.type]!;
}

/** The organization's tree (collections, existing spaces): one module owns its diff (collection.ts). */
export type { DesiredTree, LiveTree };

/** How references are resolved, by what they name: the list kind whose live list knows the names, if any. */
export const lookups: readonly { lookup: Lookup; kind?: AnyListKind }[] = [
  { lookup: spaceKind.lookup },
  ...anyListKinds.flatMap((kind) => (kind.lookup ? [{ lookup: kind.lookup, kind }] : [])),
];

export { listIn, valueIn } from './list-in.js';
export { collectionKind, spaceKind };

/** Issue codes the kinds' config checks report (stable, like the others). */
export type KindIssueCode = typeof VALUE_ISSUE;
