import type { z } from 'zod';
import { ApiError } from './errors.js';
import { checkerOf } from './fast-check.js';

let observer: ((schema: z.ZodType, route: string) => void) | undefined;

/**
 * Watch which schemas answers are checked with (the fast check's test compares it with zod on every
 * one a full read uses); `undefined` stops watching.
 */
export function observeAnswerSchemas(fn: ((schema: z.ZodType, route: string) => void) | undefined): void {
  observer = fn;
}

/**
 * Parse an answer with a lenient schema; a mismatch is `invalid-response` naming the field.
 * An answer that already has the schema's shape is returned as it is, without zod's copy
 * (src/api/fast-check.ts); anything else is zod's to judge.
 */
export function parseAnswer<T extends z.ZodType>(
  schema: T,
  body: unknown,
  method: string,
  route: string,
): z.infer<T> {
  observer?.(schema, route);
  if (checkerOf(schema)?.(body)) return body as z.infer<T>;
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
