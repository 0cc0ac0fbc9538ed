import type { ApiFlavor } from './kinds.js';

/**
 * What the target API can do, where api.md and today's service differ. Diff, plan, live read,
 * apply and export ask these questions; none of them names a flavor. The values come from
 * `src/api/capabilities.ts` (built from the flavor a command speaks) and are passed in.
 */
export type ApiCapabilities = {
  /** How an item of a site's structure is ordered: one sort call, or a move call per kind. */
  ordering: 'sort-structure' | 'move';
  /** How a section joins a group: a field of the section, or the group's membership endpoint. */
  sectionJoinsGroup: 'section-field' | 'group-endpoint';
  /**
   * The flavor these capabilities describe, for one question only: which kinds it lacks. A kind
   * declares that itself (`absentIn` in its module); the registry answers it (`absentHere`).
   */
  flavor: ApiFlavor;
  /** A site has `agentsContext`. */
  agentsContext: boolean;
  /** A site can be published and unpublished. */
  publish: boolean;
  /** A JSON Schema the API stores (a site's visitor claims) may carry `$id`. */
  jsonSchemaId: boolean;
  /** The answers a delete gives. */
  deleteAnswers: readonly number[];
  /** The flag that selects the other behaviour, for messages (`--api-flavor seed`). */
  /** The organization's audit log (`GET /orgs/{org}/audit-events`): drift names who changed what. */
  auditLog: boolean;
  /** Invitations by e-mail (`POST /orgs/{org}/invites`): a listed e-mail that is not a member is invited. */
  invites: boolean;
  otherwise: string;
};
