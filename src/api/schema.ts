import { z } from 'zod';
import { nullish } from '../model/schema.js';

/**
 * Lenient schemas of the API's answers: unknown fields are allowed; the fields docsync uses are
 * checked. Share-link URLs are deliberately not part of any schema, so they never enter the model.
 */

const pageOf = <T extends z.ZodType>(item: T) =>
  z.looseObject({
    items: z.array(item),
    next: nullish(z.looseObject({ page: z.string() })),
    count: z.number().optional(),
  });
const pages = new WeakMap<z.ZodType, ReturnType<typeof pageOf>>();

/** The schema of one page of a list of `item`: built (and compiled by zod) once per item schema. */
export const Page = <T extends z.ZodType>(item: T): ReturnType<typeof pageOf<T>> => {
  let page = pages.get(item);
  if (!page) pages.set(item, (page = pageOf(item)));
  return page as ReturnType<typeof pageOf<T>>;
};

export const User = z.looseObject({ id: z.string(), email: nullish(z.string()) });
