import { DocsyncError } from '../errors.js';

/** Stable codes of API failures. Match on `code`, never on the message. */
export type ApiErrorCode =
  | 'unauthorized'
  | 'forbidden'
  | 'not-found'
  | 'conflict'
  | 'invalid-request'
  | 'rate-limited'
  | 'server'
  | 'network'
  | 'timeout'
  | 'invalid-response';

export type ApiErrorInit = {
  code: ApiErrorCode;
  method: string;
  route: string;
  status?: number;
  apiMessage?: string;
  /** True when the request may have reached the server (its effect is unknown). */
  sent: boolean;
  /** A timeout: the deadline the attempt had, in ms (the client's timeout, or less when a write gate cut it). */
  deadlineMs?: number;
  /** With more than one attempt: how many were made and how long they took together. */
  attempts?: { count: number; elapsedMs: number };
  /** A timeout: when the attempt's deadline fell, on the `performance.now()` clock (its start plus `deadlineMs`). */
  deadlineAt?: number;
  cause?: unknown;
};

/** `GET /x failed (timeout): …`, or after retries `GET /x: gave up after 3 attempts in 9.2 s: timeout (…)`. */
function apiErrorMessage(init: ApiErrorInit): string {
  const status = init.status !== undefined ? ` ${init.status}` : '';
  if (init.attempts && init.attempts.count > 1) {
    const seconds = (init.attempts.elapsedMs / 1000).toFixed(1);
    const detail = init.apiMessage ? ` (${init.apiMessage})` : '';
    return `${init.method} ${init.route}: gave up after ${init.attempts.count} attempts in ${seconds} s: ${init.code}${status}${detail}`;
  }
  const detail = init.apiMessage ? `: ${init.apiMessage}` : '';
  return `${init.method} ${init.route} failed (${init.code}${status})${detail}`;
}

/** A failed API call. Carries the method, the route template, the status and the API's message; never the token. */
export class ApiError extends DocsyncError<ApiErrorCode> {
  readonly method: string;
  readonly route: string;
  readonly status: number | undefined;
  readonly apiMessage: string | undefined;
  readonly sent: boolean;
  readonly deadlineMs: number | undefined;
  readonly attempts: number;
  readonly deadlineAt: number | undefined;

  constructor(init: ApiErrorInit) {
    super(init.code, apiErrorMessage(init), { cause: init.cause });
    this.name = 'ApiError';
    this.method = init.method;
    this.route = init.route;
    this.status = init.status;
    this.apiMessage = init.apiMessage;
    this.sent = init.sent;
    this.deadlineMs = init.deadlineMs;
    this.deadlineAt = init.deadlineAt;
    this.attempts = init.attempts?.count ?? 1;
  }

  /** The same failure, reported as the last of `count` attempts. */
  afterAttempts(count: number, elapsedMs: number): ApiError {
    if (count <= 1) return this;
    return new ApiError({ ...this.init(), attempts: { count, elapsedMs }, cause: this.cause });
  }

  private init(): ApiErrorInit {
    return {
      code: this.code,
      method: this.method,
      route: this.route,
      ...(this.status !== undefined ? { status: this.status } : {}),
      ...(this.apiMessage !== undefined ? { apiMessage: this.apiMessage } : {}),
      sent: this.sent,
      ...(this.deadlineMs !== undefined ? { deadlineMs: this.deadlineMs } : {}),
      ...(this.deadlineAt !== undefined ? { deadlineAt: this.deadlineAt } : {}),
    };
  }

  /** The outcome is unknown: the request may or may not have taken effect. */
  get ambiguous(): boolean {
    return this.sent && (this.code === 'network' || this.code === 'timeout' || this.code === 'server');
  }
}

export function codeForStatus(status: number): ApiErrorCode {
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not-found';
  if (status === 409) return 'conflict';
  if (status === 429) return 'rate-limited';
  if (status >= 500) return 'server';
  return 'invalid-request';
}
