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
import type { KindModule, OpDef, OpDefs } from './types.js';

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

/** The registry: every kind docsync manages, one module each (decision 0020). */
export const kindModules: readonly KindModule<never>[] = [
  siteKind,
  sectionKind,
  sectionGroupKind,
  groupMembershipKind,
  siteSpaceKind,
  shareLinkKind,
  customFieldKind,
  spaceCustomFieldsKind,
  teamKind,
  teamMembersKind,
  organizationKind,
  memberKind,
  collectionKind,
  spaceKind,
  openApiSpecKind,
  samlProviderKind,
  translationKind,
  adaptiveSchemaKind,
  publicationKind,
] as readonly KindModule<never>[];

const opDefs = Object.fromEntries(kindModules.flatMap((k) => Object.entries(k.ops))) as OpDefs<ChangeOp>;

/** How an operation of the plan is carried out. */
export function opDef<O extends ChangeOp>(op: O): OpDef<O> {
  return (opDefs as Record<string, OpDef<O>>)[op.type]!;
}
