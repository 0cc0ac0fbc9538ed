import { badRequest } from './errors.js';

/**
 * Today's API accepts only a narrow JSON schema for a site's adaptive content
 * (`SiteAdaptiveJSONSchema` of the official document): `type: object`, `properties` and
 * `additionalProperties: false` at the root, an optional draft-07 `$schema`, nothing else (so no
 * `$id`); each claim has a `description` and is a primitive, an array of primitives or an object of
 * claims. The emulator refuses the rest in `--flavor current`, naming the field.
 */
const primitives = ['boolean', 'string', 'number'];

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function only(value: Json, allowed: string[], where: string): void {
  for (const key of Object.keys(value))
    if (!allowed.includes(key)) throw badRequest(`${where}.${key}: is not allowed`);
}

function claim(value: unknown, where: string): void {
  if (!isObject(value)) throw badRequest(`${where}: must be an object`);
  if (typeof value['description'] !== 'string') throw badRequest(`${where}.description: is required`);
  const type = value['type'];
  if (typeof type === 'string' && primitives.includes(type)) {
    only(value, type === 'string' ? ['type', 'description', 'enum'] : ['type', 'description'], where);
    const values = value['enum'];
    if (values !== undefined && (!Array.isArray(values) || values.some((v) => typeof v !== 'string')))
      throw badRequest(`${where}.enum: must be an array of strings`);
    return;
  }
  if (type === 'array') {
    only(value, ['type', 'description', 'items'], where);
    claim(value['items'], `${where}.items`);
    const itemType = (value['items'] as Json)['type'];
    if (!primitives.includes(String(itemType))) throw badRequest(`${where}.items.type: must be a primitive`);
    return;
  }
  if (type === 'object') {
    only(value, ['type', 'description', 'properties', 'additionalProperties'], where);
    claims(value, where);
    return;
  }
  throw badRequest(`${where}.type: must be one of ${[...primitives, 'array', 'object'].join(', ')}`);
}

function claims(value: Json, where: string): void {
  if (!isObject(value['properties'])) throw badRequest(`${where}.properties: must be an object`);
  if (value['additionalProperties'] !== false)
    throw badRequest(`${where}.additionalProperties: must be false`);
  for (const [name, c] of Object.entries(value['properties'])) claim(c, `${where}.properties.${name}`);
}

export function checkAdaptiveSchema(schema: Json): void {
  const where = 'jsonSchema';
  only(schema, ['$schema', 'type', 'properties', 'additionalProperties'], where);
  if (schema['$schema'] !== undefined && schema['$schema'] !== 'http://json-schema.org/draft-07/schema#')
    throw badRequest(`${where}.$schema: must be http://json-schema.org/draft-07/schema#`);
  claims(schema, where);
}
