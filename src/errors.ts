/**
 * Every error code docsync gives to an error or a plan problem that crosses a module boundary.
 * Callers, scripts and the CLI match on `code`, never on the message. The codes are stable: add
 * new ones, never rename or reuse one (`errors.test.ts` checks they stay unique and spelled
 * kebab-case).
 */
export const ERROR_CODES = [
  // API calls (src/api): one per class of HTTP failure.
  'unauthorized',
  'forbidden',
  'not-found',
  'conflict',
  'invalid-request',
  'rate-limited',
  'server',
  'network',
  'timeout',
  'invalid-response',
  // Bounded answers (src/api/bounded-body.ts).
  'answer-too-large',
  'deadline',
  // Outbound HTTP that is not the API: PR comments and notifications.
  'github',
  'outbound-failed',
  'notifications',
  // Credentials and secrets.
  'token-missing',
  'token-file',
  'webhook-secret',
  'ui-auth',
  'outside-root',
  'not-regular-file',
  'too-large',
  'read-failed',
  'env-not-allowed',
  'env-unset',
  'vcs-metadata',
  'symlink',
  'invalid-content',
  'certificate-changed',
  // The daemon's webhook endpoint.
  'body-too-large',
  'body-timeout',
  // Source (git).
  'git',
  'checkout-too-large',
  // Coordination between writers (src/coord, the write gate).
  'etcd',
  'coordination',
  'not-owner',
  // Apply.
  'locked',
  'unresolved-ref',
  'outcome-unknown',
  // Command line input.
  'invalid-option',
  'invalid-env',
  // A run's outcome (src/pipeline/failure.ts): the config did not load, a change failed, an unexpected error.
  'invalid-config',
  'apply-failed',
  'internal',
  'invalid-plan-file',
  // Diff problems (an organization cannot be planned).
  'pin-not-found',
  'unknown-reference',
  'not-a-member',
  'token-user-unknown',
  'unsupported-by-api',
  'live-read-failed',
  'path-conflict',
  'duplicate-change-key',
  'redirect-loop',
  'unknown-redirect-destination',
  // Plan problems and the safety guard.
  'dependency-cycle',
  'outside-targets',
  'too-many-deletes',
  'deletes-everything',
  'too-few-admins',
  'too-many-updates',
  'protected-resource',
  'broken-links',
  // Daemon controls (`docsync suspend|resume`, `/api/orgs/{org}`).
  'daemon-unreachable',
  'daemon-refused',
  'unknown-organization',
  'controls-file',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** Codes of problems the diff reports for an organization it cannot plan. */
export type DiffProblemCode = Extract<
  ErrorCode,
  | 'pin-not-found'
  | 'unknown-reference'
  | 'not-a-member'
  | 'token-user-unknown'
  | 'unsupported-by-api'
  | 'live-read-failed'
  | 'path-conflict'
  | 'redirect-loop'
  | 'unknown-redirect-destination'
>;

/** Codes of problems that stop a plan (the diff's, plus the plan's own). */
export type PlanProblemCode = DiffProblemCode | 'dependency-cycle' | 'outside-targets';

export type DocsyncErrorOptions = { cause?: unknown; details?: Record<string, unknown> };

/**
 * The base of every error that crosses a module boundary: a stable `code`, a message for
 * people (never holding a secret), the `cause`, and optional structured `details`.
 */
export class DocsyncError<C extends ErrorCode = ErrorCode> extends Error {
  readonly code: C;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: C, message: string, options: DocsyncErrorOptions = {}) {
    super(message, options.cause !== undefined ? { cause: options.cause } : undefined);
    this.name = new.target.name;
    this.code = code;
    this.details = options.details;
  }
}

/** The stable code of an error, when it has one. */
export function errorCode(error: unknown): ErrorCode | undefined {
  return error instanceof DocsyncError ? error.code : undefined;
}
