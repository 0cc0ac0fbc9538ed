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
  /** A timeout: when the attempt's deadline fell, on the `performance.now()` clock (its start plus `deadlineMs`). */
  deadlineAt?: number;
  cause?: unknown;
};

/** A failed API call. Carries the method, the route template, the status and the API's message; never the token. */
export class ApiError extends DocsyncError<ApiErrorCode> {
  readonly method: string;
  readonly route: string;
  readonly status: number | undefined;
  readonly apiMessage: string | undefined;
  readonly sent: boolean;
  readonly deadlineMs: number | undefined;
  readonly deadlineAt: number | undefined;

  constructor(init: ApiErrorInit) {
    const status = init.status !== undefined ? ` ${init.status}` : '';
    const detail = init.apiMessage ? `: ${init.apiMessage}` : '';
    super(init.code, `${init.method} ${init.route} failed (${init.code}${status})${detail}`, {
      cause: init.cause,
    });
    this.name = 'ApiError';
    this.method = init.method;
    this.route = init.route;
    this.status = init.status;
    this.apiMessage = init.apiMessage;
    this.sent = init.sent;
    this.deadlineMs = init.deadlineMs;
    this.deadlineAt = init.deadlineAt;
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
