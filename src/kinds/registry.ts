import type { ChangeOp } from '../model/change.js';
import { adaptiveSchemaKind, type AdaptiveSchemaOp } from './adaptive-schema.js';
import { collectionKind, type CollectionOp } from './collection.js';
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
import { spaceCustomFieldsKind, type SpaceCustomFieldsOp } from './space-custom-fields.js';
import { spaceKind, type SpaceOp } from './space.js';
import { teamMembersKind, type TeamMembersOp } from './team-members.js';
import { teamKind, type TeamOp } from './team.js';
import { translationKind, type TranslationOp } from './translation.js';
import type {
  AnyListKind,
  AnySiteListKind,
  KindModule,
  ListKind,
  OpDef,
  OpDefs,
  SiteListKind,
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
export const listKinds = [openApiSpecKind, samlProviderKind, translationKind] as const;

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
/** One config file's entries of list kinds. */
export type ConfigLists = { [Key in KeyOf<ListKinds>]?: Pick<ListKinds, Key, 'C'>[] };

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

/** The registry: every kind docsync manages, one module each (decision 0020). */
export const kindModules: readonly KindModule<never>[] = [
  siteKind,
  sectionKind,
  sectionGroupKind,
  groupMembershipKind,
  siteSpaceKind,
  ...siteListKinds,
  customFieldKind,
  spaceCustomFieldsKind,
  teamKind,
  teamMembersKind,
  organizationKind,
  memberKind,
  collectionKind,
  spaceKind,
  ...listKinds,
  samlProviderKind,
  adaptiveSchemaKind,
  publicationKind,
] as readonly KindModule<never>[];

const opDefs = Object.fromEntries(kindModules.flatMap((k) => Object.entries(k.ops))) as OpDefs<ChangeOp>;

/** How an operation of the plan is carried out. */
export function opDef<O extends ChangeOp>(op: O): OpDef<O> {
  return (opDefs as Record<string, OpDef<O>>)[op.type]!;
}

/** A list kind's entries in a desired or live organization, or a config file (undefined: unmanaged). */
export function listIn(holder: object, key: string): unknown[] | undefined {
  return (holder as Record<string, unknown>)[key] as unknown[] | undefined;
}
