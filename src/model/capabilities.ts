/**
 * What the target API can do, where api.md and today's service differ. Diff, plan, live read,
 * apply and export ask these questions; none of them names a flavor. The values come from
 * `src/api/capabilities.ts` (built from the flavor a command speaks) and are passed in.
 */
export type ApiCapabilities = {
  /** How an item of a site's structure is ordered: one sort call, or a move call per kind. */
  ordering: 'sort-structure' | 'move';
  /** How a section joins a group: a field of the section, or the group's membership endpoint. */
  groupMembership: 'section-field' | 'membership-endpoint';
  /** Organization custom fields and space values exist. */
  customFields: boolean;
  /** api.md's translation settings (by title) exist at `/orgs/{org}/translations`. */
  translationSettings: boolean;
  /** Today's translations (a space translated into a language) exist there instead: read, not managed. */
  spaceTranslations: boolean;
  /** A site has `agentsContext`. */
  agentsContext: boolean;
  /** A site can be published and unpublished. */
  publish: boolean;
  /** The adaptive schema may carry `$id`. */
  adaptiveSchemaId: boolean;
  /** The answers a delete gives. */
  deleteAnswers: readonly number[];
  /** The flag that selects the other behaviour, for messages (`--api-flavor seed`). */
  otherwise: string;
};
