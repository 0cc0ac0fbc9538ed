import type { ChangeOp } from '../model/change.js';
import { adaptiveSchemaKind, type AdaptiveSchemaOp } from './adaptive-schema.js';
import {
  collectionKind,
  type CollectionOp,
  type DesiredCollection,
  type LiveCollection,
} from './collection.js';
import { customFieldKind, type CustomFieldOp } from './custom-field.js';
import { memberKind, type MemberOp } from './member.js';
import { openApiSpecKind, type OpenApiSpecOp } from './openapi-spec.js';
import { organizationKind, type OrganizationOp } from './organization.js';
import { publicationKind, type PublicationOp } from './publication.js';
import { samlProviderKind, type SamlProviderOp } from './saml-provider.js';
import { groupMembershipKind, type GroupMembershipOp } from './section-group-membership.js';
import { sectionGroupKind, type SectionGroupOp } from './section-group.js';
import { shareLinkKind, type ShareLinkOp } from './share-link.js';
import { sectionKind, type SectionOp } from './site-section.js';
import { siteSpaceKind, type SiteSpaceOp } from './site-space.js';
import { siteKind, type SiteOp } from './site.js';
import type { VALUE_ISSUE } from './space-custom-fields.js';
import { spaceCustomFieldsKind, type SpaceCustomFieldsOp } from './space-custom-fields.js';
import { spaceKind, type DesiredSpace, type LiveSpace, type SpaceOp } from './space.js';
import { teamMembersKind, type TeamMembersOp } from './team-members.js';
import { teamKind, type TeamOp } from './team.js';
import { translationKind, type TranslationOp } from './translation.js';
import type {
  AnyListKind,
  AnyObjectKind,
  AnySiteListKind,
  AnySiteFacet,
  AnySpaceFacet,
  KindModule,
  ListKind,
  ObjectKind,
  OpDef,
  OpDefs,
  SiteListKind,
  SiteFacet,
  SpaceFacet,
} from './types.js';

/** Every operation a plan can hold: the union of the kinds' operations (pure data). */
export type KindOp =
  | SiteOp
  | SectionOp
  | SectionGroupOp
  | GroupMembershipOp
  | SiteSpaceOp
  | ShareLinkOp
  | CustomFieldOp
  | SpaceCustomFieldsOp
  | TeamOp
  | TeamMembersOp
  | OrganizationOp
  | MemberOp
  | CollectionOp
  | SpaceOp
  | OpenApiSpecOp
  | SamlProviderOp
  | TranslationOp
  | AdaptiveSchemaOp
  | PublicationOp;

/**
 * The kinds that are lists directly under an organization, in the order they are diffed and
 * read: their config keys, desired and live lists are derived from these modules.
 */
export const listKinds = [
  memberKind,
  openApiSpecKind,
  samlProviderKind,
  translationKind,
  customFieldKind,
  teamKind,
] as const;

type ListKinds = (typeof listKinds)[number];
type KeyOf<K> = K extends ListKind<infer Key, infer _C, infer _D, infer _L, infer _O> ? Key : never;
type Pick<K, Key, Part extends 'C' | 'D' | 'L'> =
  K extends ListKind<infer K2, infer C, infer D, infer L, infer _O>
    ? K2 extends Key
      ? { C: C; D: D; L: L }[Part]
      : never
    : never;

/** The desired organization's lists of list kinds: `openapi?: DesiredOpenApiSpec[]`… */
export type DesiredLists = { [Key in KeyOf<ListKinds>]?: Pick<ListKinds, Key, 'D'>[] };
/** The live organization's lists of list kinds (undefined: not read). */
export type LiveLists = { [Key in KeyOf<ListKinds>]?: Pick<ListKinds, Key, 'L'>[] };

/** The list kinds, loosely typed, for code that handles every one the same way. */
export const anyListKinds: readonly AnyListKind[] = listKinds;

/** The kinds that are lists inside a site, in the order they are diffed. */
export const siteListKinds = [shareLinkKind] as const;

type SiteListKinds = (typeof siteListKinds)[number];
type SiteKeyOf<K> = K extends SiteListKind<infer Key, infer _C, infer _D, infer _L, infer _O> ? Key : never;
type SitePick<K, Key, Part extends 'C' | 'D' | 'L'> =
  K extends SiteListKind<infer K2, infer C, infer D, infer L, infer _O>
    ? K2 extends Key
      ? { C: C; D: D; L: L }[Part]
      : never
    : never;

/** The desired site's lists of site list kinds. */
export type DesiredSiteLists = { [Key in SiteKeyOf<SiteListKinds>]?: SitePick<SiteListKinds, Key, 'D'>[] };
/** The live site's lists of site list kinds (undefined: not read). */
export type LiveSiteLists = { [Key in SiteKeyOf<SiteListKinds>]?: SitePick<SiteListKinds, Key, 'L'>[] };

export const anySiteListKinds: readonly AnySiteListKind[] = siteListKinds;

/** The kinds that are facets of an existing space (a key of its entry). */
export const spaceFacets = [spaceCustomFieldsKind] as const;

type SpaceFacets = (typeof spaceFacets)[number];
type FacetKeyOf<K> = K extends SpaceFacet<infer Key, infer _C, infer _D, infer _O> ? Key : never;
type FacetPick<K, Key> =
  K extends SpaceFacet<infer K2, infer _C, infer D, infer _O> ? (K2 extends Key ? D : never) : never;

/** The desired and live space's facets. */
export type SpaceFacetValues = { [Key in FacetKeyOf<SpaceFacets>]?: FacetPick<SpaceFacets, Key> };

export const anySpaceFacets: readonly AnySpaceFacet[] = spaceFacets;

/** The kinds that are one object per organization (its settings). */
export const objectKinds = [organizationKind] as const;

type ObjectKinds = (typeof objectKinds)[number];
type ObjectKeyOf<K> = K extends ObjectKind<infer Key, infer _C, infer _D, infer _L, infer _O> ? Key : never;
type ObjectPick<K, Key, Part extends 'C' | 'D' | 'L'> =
  K extends ObjectKind<infer K2, infer C, infer D, infer L, infer _O>
    ? K2 extends Key
      ? { C: C; D: D; L: L }[Part]
      : never
    : never;

/** The desired organization's objects (`settings?`). */
export type DesiredObjects = { [Key in ObjectKeyOf<ObjectKinds>]?: ObjectPick<ObjectKinds, Key, 'D'> };
/** The live organization's objects (undefined: not read). */
export type LiveObjects = { [Key in ObjectKeyOf<ObjectKinds>]?: ObjectPick<ObjectKinds, Key, 'L'> };

export const anyObjectKinds: readonly AnyObjectKind[] = objectKinds;

/** The kinds that are one value of a site (its adaptive schema), in the order they are diffed. */
export const siteFacets = [publicationKind, adaptiveSchemaKind] as const;

type SiteFacets = (typeof siteFacets)[number];
type SiteFacetKeyOf<K> = K extends SiteFacet<infer Key, infer _C, infer _D, infer _L, infer _O> ? Key : never;
type SiteFacetPick<K, Key, Part extends 'D' | 'L'> =
  K extends SiteFacet<infer K2, infer _C, infer D, infer L, infer _O>
    ? K2 extends Key
      ? { D: D; L: L }[Part]
      : never
    : never;

/** The desired and live site's facets (undefined: not managed, or not read). */
export type DesiredSiteFacets = { [Key in SiteFacetKeyOf<SiteFacets>]?: SiteFacetPick<SiteFacets, Key, 'D'> };
export type LiveSiteFacets = { [Key in SiteFacetKeyOf<SiteFacets>]?: SiteFacetPick<SiteFacets, Key, 'L'> };

export const anySiteFacets: readonly AnySiteFacet[] = siteFacets;

/** The registry: every kind docsync manages, one module each (decision 0020). */
export const kindModules: readonly KindModule<never>[] = [
  siteKind,
  sectionKind,
  sectionGroupKind,
  groupMembershipKind,
  siteSpaceKind,
  ...siteListKinds,
  ...spaceFacets,
  teamMembersKind,
  ...objectKinds,
  collectionKind,
  spaceKind,
  ...listKinds,
  ...siteFacets,
] as readonly KindModule<never>[];

const opDefs = Object.fromEntries(kindModules.flatMap((k) => Object.entries(k.ops))) as OpDefs<ChangeOp>;

/** How an operation of the plan is carried out. */
export function opDef<O extends ChangeOp>(op: O): OpDef<O> {
  return (opDefs as Record<string, OpDef<O>>)[op.type]!;
}

/** The organization's tree (collections, existing spaces): one module owns its diff (collection.ts). */
export type DesiredTree = { collections?: DesiredCollection[]; spaces?: DesiredSpace[] };
export type LiveTree = { collections?: LiveCollection[]; spaces?: LiveSpace[] };

export { listIn } from './list-in.js';
export { collectionKind, siteKind, spaceKind };

/** Issue codes the kinds' config checks report (stable, like the others). */
export type KindIssueCode = typeof VALUE_ISSUE;
