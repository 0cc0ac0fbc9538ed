import type { z } from 'zod';
import { ApiError } from './errors.js';

/** Parse an answer with a lenient schema; a mismatch is `invalid-response` naming the field. */
export function parseAnswer<T extends z.ZodType>(
  schema: T,
  body: unknown,
  method: string,
  route: string,
): z.infer<T> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.map(String).join('.') || '(body)';
  throw new ApiError({
    code: 'invalid-response',
    method,
    route,
    status: 200,
    apiMessage: `unexpected answer at ${field}: ${issue.message}`,
    sent: true,
  });
}
