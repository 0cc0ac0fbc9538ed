import type { Dispatcher } from 'undici';
import { DocsyncError } from '../errors.js';
import { redact, registerSecret } from '../secrets/registry.js';
import { AnswerTooLargeError, attemptDeadline, DeadlineError, readBoundedText } from './bounded-body.js';
import { codeForStatus, type ApiErrorCode } from './errors.js';
import { NOT_SENT, sleep } from './http.js';
import { Agent, request } from './undici.js';

/**
 * Outbound HTTP that is not the managed API (PR comments, notification webhooks), under the same
 * policy as API calls: a total deadline per attempt, a bounded answer, retries with exponential
 * backoff and full jitter on 5xx, 429 and network failures, and messages passed through the
 * secrets registry. No queue and no rate budget: these are a handful of calls per run.
 */
export type OutboundRequest = {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  /** Names the call in errors and logs, without secrets: `GitHub GET /repos/{repo}/issues/{pr}/comments`. */
  what: string;
  headers?: Record<string, string>;
  /** Sent as JSON. */
  body?: unknown;
  /** A JSON body as its exact text, sent byte for byte (when a signature covers it); instead of `body`. */
  json?: string;
  /**
   * A call that creates something (a new comment): retried only when it never reached the server
   * or was refused with 429, so a lost answer cannot create twice.
   */
  create?: boolean;
};

export type OutboundPolicy = {
  /** Total deadline of one attempt (headers and body together), in ms. */
  timeoutMs?: number;
  maxResponseBytes?: number;
  maxAttempts?: number;
  backoffBaseMs?: number;
  backoffCapMs?: number;
  random?: () => number;
  /** Values to keep out of every message (the token); registered with src/secrets. */
  secrets?: readonly string[];
};

export type OutboundResponse = { status: number; text: string };

export const OUTBOUND_DEFAULTS = {
  timeoutMs: 30_000,
  maxResponseBytes: 16 * 1024 * 1024,
  maxAttempts: 4,
  backoffBaseMs: 250,
  backoffCapMs: 5_000,
  random: Math.random,
} satisfies Required<Omit<OutboundPolicy, 'secrets'>>;

/** An outbound call failed for good: `reason` is the class of failure, `status` the last answer's. */
export class OutboundError extends DocsyncError<'outbound-failed'> {
  constructor(
    readonly reason: ApiErrorCode | 'answer-too-large',
    readonly status: number | undefined,
    /** True when the request may have reached the server. */
    readonly sent: boolean,
    message: string,
    cause?: unknown,
  ) {
    super('outbound-failed', redact(message), { cause });
  }
}

/** The answer's message (`{ message }` or `{ error: { message } }`), short and redacted. */
function answerMessage(text: string): string {
  try {
    const parsed = JSON.parse(text) as { message?: unknown; error?: { message?: unknown } };
    const message = parsed.message ?? parsed.error?.message;
    if (typeof message === 'string') return redact(message.slice(0, 300));
  } catch {
    // not JSON: fall through
  }
  return redact(text.slice(0, 200));
}

/** One connection pool for every outbound call (PR comments, notifications), made when first used. */
let agent: InstanceType<typeof Agent> | undefined;

async function attempt(req: OutboundRequest, policy: typeof OUTBOUND_DEFAULTS): Promise<OutboundResponse> {
  const deadline = attemptDeadline(policy.timeoutMs);
  let res: Dispatcher.ResponseData | undefined;
  try {
    const url = new URL(req.url);
    agent ??= new Agent();
    const json = req.json ?? (req.body !== undefined ? JSON.stringify(req.body) : undefined);
    res = await request(agent, url.origin, `${url.pathname}${url.search}`, {
      method: req.method,
      headers: {
        ...req.headers,
        ...(json !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(json !== undefined ? { body: json } : {}),
      signal: deadline.signal,
    });
    const text = await readBoundedText(res, policy.maxResponseBytes);
    return { status: res.statusCode, text };
  } catch (error) {
    const status = res?.statusCode;
    if (error instanceof AnswerTooLargeError)
      throw new OutboundError('answer-too-large', status, true, `${req.what}: ${error.message}`, error);
    if (deadline.signal.aborted && deadline.signal.reason instanceof DeadlineError)
      throw new OutboundError(
        'timeout',
        status,
        true,
        `${req.what}: ${deadline.signal.reason.message}`,
        error,
      );
    const code = (error as { code?: string }).code ?? '';
    const sent = res !== undefined || !NOT_SENT.has(code);
    throw new OutboundError(
      'network',
      status,
      sent,
      `${req.what}: ${code || (error as Error).message}`,
      error,
    );
  } finally {
    deadline.clear();
  }
}

/** Whether another attempt is allowed after this failure. */
function retryable(req: OutboundRequest, error: OutboundError): boolean {
  if (error.reason === 'rate-limited') return true;
  if (error.reason !== 'server' && error.reason !== 'network' && error.reason !== 'timeout') return false;
  return !req.create || !error.sent;
}

/**
 * Send one outbound call under the policy. Resolves with the answer when its status is below 300;
 * otherwise retries what may pass on a second try, then throws an `OutboundError` whose message
 * names `what`, the status and the answer's message, never a secret.
 */
export async function sendOutbound(
  req: OutboundRequest,
  options: OutboundPolicy = {},
): Promise<OutboundResponse> {
  const policy = { ...OUTBOUND_DEFAULTS, ...options };
  for (const secret of options.secrets ?? []) registerSecret(secret);
  for (let n = 1; ; n += 1) {
    let failure: OutboundError;
    try {
      const res = await attempt(req, policy);
      if (res.status < 300) return res;
      const reason = codeForStatus(res.status);
      failure = new OutboundError(
        reason,
        res.status,
        reason !== 'rate-limited',
        `${req.what} answered ${res.status}${res.text ? `: ${answerMessage(res.text)}` : ''}`,
      );
    } catch (error) {
      if (!(error instanceof OutboundError)) throw error;
      failure = error;
    }
    if (!retryable(req, failure) || n >= policy.maxAttempts) throw failure;
    const ceiling = Math.min(policy.backoffCapMs, policy.backoffBaseMs * 2 ** (n - 1));
    await sleep(Math.floor(policy.random() * ceiling));
  }
}
