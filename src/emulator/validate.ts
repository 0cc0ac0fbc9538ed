import { badRequest } from './errors.js';
import { LANGUAGES as translationLanguages } from '../kinds/fields.js';

/** Request body checks of the emulator: each failure is a 400 naming the field. */
export type Body = Record<string, unknown>;

export function asBody(value: unknown, required = false): Body {
  if (value === undefined || value === null) {
    if (required) throw badRequest('request body is required');
    return {};
  }
  if (typeof value !== 'object' || Array.isArray(value))
    throw badRequest('request body must be a JSON object');
  return value as Body;
}

type StrOpts = { required?: boolean; nullable?: boolean; min?: number; max?: number; pattern?: RegExp };

export function optString(body: Body, field: string, opts: StrOpts = {}): string | null | undefined {
  const value = body[field];
  if (value === undefined) {
    if (opts.required) throw badRequest(`${field}: is required`);
    return undefined;
  }
  if (value === null) {
    if (opts.nullable) return null;
    throw badRequest(`${field}: must not be null`);
  }
  if (typeof value !== 'string') throw badRequest(`${field}: must be a string`);
  if (opts.min !== undefined && value.length < opts.min)
    throw badRequest(`${field}: must be at least ${opts.min} characters`);
  if (opts.max !== undefined && value.length > opts.max)
    throw badRequest(`${field}: must be at most ${opts.max} characters`);
  if (opts.pattern && !opts.pattern.test(value))
    throw badRequest(`${field}: does not match ${opts.pattern.source}`);
  return value;
}

export function reqString(
  body: Body,
  field: string,
  opts: Omit<StrOpts, 'required' | 'nullable'> = {},
): string {
  return optString(body, field, { ...opts, required: true }) as string;
}

export function optBoolean(body: Body, field: string): boolean | undefined {
  const value = body[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw badRequest(`${field}: must be a boolean`);
  return value;
}

export function optEnum<T extends string>(
  body: Body,
  field: string,
  values: readonly T[],
  opts: { nullable?: boolean; required?: boolean } = {},
): T | null | undefined {
  const value = body[field];
  if (value === undefined) {
    if (opts.required) throw badRequest(`${field}: is required`);
    return undefined;
  }
  if (value === null && opts.nullable) return null;
  if (typeof value !== 'string' || !values.includes(value as T))
    throw badRequest(`${field}: must be one of ${values.join(', ')}`);
  return value as T;
}

export function optStringArray(
  body: Body,
  field: string,
  opts: { min?: number; max?: number; itemMax?: number } = {},
): string[] | undefined {
  const value = body[field];
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
    throw badRequest(`${field}: must be an array of strings`);
  if (opts.min !== undefined && value.length < opts.min)
    throw badRequest(`${field}: must have at least ${opts.min} items`);
  if (opts.max !== undefined && value.length > opts.max)
    throw badRequest(`${field}: must have at most ${opts.max} items`);
  if (opts.itemMax !== undefined && value.some((v: string) => v.length > opts.itemMax!))
    throw badRequest(`${field}: items must be at most ${opts.itemMax} characters`);
  return value as string[];
}

export const roles = ['admin', 'create', 'review', 'edit', 'comment', 'read'] as const;
export const siteVisibilities = ['public', 'unlisted', 'share-link', 'visitor-auth'] as const;
export const proxyPattern = /^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$/;
export const customFieldNamePattern = /^[a-z_\-0-9]+$/;
export const customFieldTypes = [
  'text',
  'number',
  'boolean',
  'tags',
  'select:multi',
  'select:single',
] as const;

/** A localized text (`LocalizedString128`/`256`): an object of strings by language, each at most `max`. */
export function optLocalized(body: Body, field: string, max: number): Record<string, string> | undefined {
  const value = body[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw badRequest(`${field}: must be an object of strings by language`);
  for (const [language, text] of Object.entries(value)) {
    if (!(translationLanguages as readonly string[]).includes(language))
      throw badRequest(`${field}.${language}: is not a known language`);
    if (typeof text !== 'string' || text.length > max)
      throw badRequest(`${field}.${language}: must be a string of at most ${max} characters`);
  }
  return value as Record<string, string>;
}
