import { ApiError, codeForStatus } from './errors.js';
import { jsonText } from './json-text.js';
import type { HttpRequest } from './request.js';

/** The API's error message, from `{ error: { message } }`, cut to a sane length. */
function apiMessage(text: string): string | undefined {
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } };
    const message = parsed.error?.message;
    if (typeof message === 'string') return message.slice(0, 500);
  } catch {
    // not JSON: fall through
  }
  return text ? text.slice(0, 200) : undefined;
}

/** An expected answer's body, parsed; an answer that is not JSON is the API's error, not ours. */
export function parsedAnswer(req: HttpRequest, status: number, bytes: Buffer): unknown {
  try {
    return JSON.parse(jsonText(bytes)) as unknown;
  } catch (error) {
    throw new ApiError({
      code: 'invalid-response',
      method: req.method,
      route: req.route,
      status,
      apiMessage: 'the answer is not valid JSON',
      sent: true,
      cause: error,
    });
  }
}

/** The error an unexpected status is (a 429 was not taken by the server: it may be sent again). */
export function refusal(req: HttpRequest, status: number, bytes: Buffer): ApiError {
  return new ApiError({
    code: codeForStatus(status),
    method: req.method,
    route: req.route,
    status,
    apiMessage: apiMessage(bytes.toString('utf8')),
    sent: status !== 429,
  });
}
