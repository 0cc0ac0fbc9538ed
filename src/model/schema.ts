import type { z } from 'zod';

/** An optional answer field the API may also send as null (the kinds' and the API's lenient schemas). */
export const nullish = <T extends z.ZodType>(t: T) => t.nullable().optional();
