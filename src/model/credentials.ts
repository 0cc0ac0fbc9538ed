/**
 * Live fields that are credentials (a share link's URL, an invite link's id): whoever reads an
 * answer that holds them registers their values with redaction (src/secrets/credentials.ts), so
 * they never leave the process in a plan, log, page or export. `fields` are dot paths in an
 * answer item (`urls.published`); `id`: the item's `id` is itself one, so the live model, the plan
 * and export carry its fingerprint (`sha256:` and 12 hex digits) instead, and an operation on it
 * finds the real id again when it runs (`OpDef.locate`). decision 0031.
 */
export type Credentials = { fields?: readonly string[]; id?: boolean };

/** A fingerprint as the live model, plans and export carry it (`sha256:3f2a9c0b1d4e`). */
export const FINGERPRINT = /^sha256:[0-9a-f]{12}$/;
