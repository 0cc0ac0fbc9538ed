import type { ChangeAction, CustomFieldType, CustomFieldValue, ResourceKind, TeamRole } from './kinds.js';

/**
 * A reference to a live object: either an id known at plan time, or the object that an earlier
 * change of the same plan creates (`change` is that change's id, `key` picks one of the ids it
 * yields: `id` by default, `siteSpace:<spaceId>` for the first site space of a created section).
 */
export type Ref = { id: string } | { change: string; key?: string };

/** A value inside an update body that names another object. */
export type RefValue = { $ref: Ref };

/** A certificate inside a body: read from its file or variable when the change runs, checked against its hash. */
export type CertificateValue = {
  $certificate:
    { source: 'file'; path: string; sha256: string } | { source: 'env'; name: string; sha256: string };
};

export type Position = { before?: Ref; after?: Ref };

export type Fields = Record<string, unknown>;

/** Body of an update: plain values, or references resolved when the change runs. */
export type Patch = Record<string, unknown>;

/**
 * The single API call a change makes. Pure data: the plan holds it, only `apply` executes it.
 */
export type ChangeOp =
  | { type: 'create-site'; org: string; title: string; visibility?: string }
  | { type: 'update-site'; org: string; site: Ref; patch: Patch }
  | { type: 'delete-site'; org: string; site: Ref }
  | { type: 'create-section'; org: string; site: Ref; spaceId: string; title?: string }
  | { type: 'update-section'; org: string; site: Ref; section: Ref; patch: Patch }
  | { type: 'delete-section'; org: string; site: Ref; section: Ref }
  | { type: 'move-section'; org: string; site: Ref; section: Ref; position: Position }
  | {
      type: 'create-section-group';
      org: string;
      site: Ref;
      title: string;
      icon?: string | null;
      sections: Ref[];
    }
  | { type: 'update-section-group'; org: string; site: Ref; group: Ref; patch: Patch }
  | { type: 'delete-section-group'; org: string; site: Ref; group: Ref }
  | { type: 'move-section-group'; org: string; site: Ref; group: Ref; position: Position }
  | { type: 'add-group-section'; org: string; site: Ref; group: Ref; section: Ref }
  | { type: 'remove-group-section'; org: string; site: Ref; group: Ref; section: Ref }
  | { type: 'create-site-space'; org: string; site: Ref; spaceId: string; section?: Ref }
  | { type: 'update-site-space'; org: string; site: Ref; siteSpace: Ref; patch: Patch }
  | { type: 'delete-site-space'; org: string; site: Ref; siteSpace: Ref }
  | { type: 'move-site-space'; org: string; site: Ref; siteSpace: Ref; position: Position }
  | { type: 'create-share-link'; org: string; site: Ref; name: string }
  | { type: 'update-share-link'; org: string; site: Ref; shareLink: Ref; patch: Patch }
  | { type: 'delete-share-link'; org: string; site: Ref; shareLink: Ref }
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
  | { type: 'delete-custom-field'; org: string; name: string }
  | { type: 'set-space-custom-fields'; spaceId: string; values: Record<string, CustomFieldValue> }
  | { type: 'create-team'; org: string; title: string }
  | { type: 'update-team'; org: string; team: Ref; title: string }
  | { type: 'delete-team'; org: string; team: Ref }
  | { type: 'update-organization'; org: string; patch: Patch }
  | { type: 'update-member'; org: string; userId: string; role: string | null }
  | { type: 'remove-member'; org: string; userId: string }
  | { type: 'create-collection'; org: string; title: string; parent?: Ref }
  | { type: 'update-collection'; collection: Ref; patch: Patch }
  | { type: 'move-collection'; collection: Ref; parent: Ref | null }
  | { type: 'delete-collection'; collection: Ref }
  | { type: 'update-space'; spaceId: string; patch: Patch }
  | { type: 'move-space'; spaceId: string; parent: Ref | null }
  | { type: 'create-openapi-spec'; org: string; slug: string; url: string }
  | { type: 'update-openapi-spec'; org: string; slug: string; url: string }
  | { type: 'delete-openapi-spec'; org: string; slug: string }
  | { type: 'create-saml-provider'; org: string; body: Patch }
  | { type: 'update-saml-provider'; org: string; provider: Ref; patch: Patch }
  | { type: 'delete-saml-provider'; org: string; provider: Ref }
  | { type: 'create-translation'; org: string; title: string }
  | { type: 'update-translation'; org: string; translation: Ref; title: string }
  | { type: 'delete-translation'; org: string; translation: Ref }
  | { type: 'set-adaptive-schema'; org: string; site: Ref; jsonSchema: Record<string, unknown> }
  | { type: 'publish-site'; org: string; site: Ref }
  | { type: 'unpublish-site'; org: string; site: Ref }
  | {
      type: 'set-team-members';
      org: string;
      team: Ref;
      add: string[];
      remove: string[];
      memberships: Record<string, { role: TeamRole }>;
    };

/** The note of an update that sets what a creation call cannot take (decision 0002). */
export const SET_AFTER_CREATION = 'set after creation';

/** One reviewed step of a plan: exactly one API call. */
export type Change = {
  id: string;
  action: ChangeAction;
  kind: ResourceKind;
  address: string;
  /** Changed fields only, as they are now (null for a creation). */
  before: Fields | null;
  /** Changed fields only, as they will be (null for a deletion). */
  after: Fields | null;
  dependsOn: string[];
  /** Why a change exists when that is not obvious (a follow-up after creation, a temporary path). */
  note?: string;
  op: ChangeOp;
};

/** Two or more live objects that share the key of one desired entry: left alone until one is pinned. */
export type Duplicate = { organization: string; kind: string; name: string; ids: string[] };

/** A live resource of a managed kind that the config does not describe. */
export type Unmanaged = { kind: ResourceKind; address: string };

export function isRefValue(value: unknown): value is RefValue {
  return typeof value === 'object' && value !== null && '$ref' in value;
}
