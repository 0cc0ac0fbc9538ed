import { z } from 'zod';
import { ConfigFileSchema } from './schema.js';

/** The JSON Schema of the config format, generated from the zod schema (one source of truth). */
export function configJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(ConfigFileSchema, { target: 'draft-7', io: 'input' }) as Record<
    string,
    unknown
  >;
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: 'https://docsync.dev/schema/docsync.schema.json',
    title: 'docsync configuration (format v1)',
    ...Object.fromEntries(Object.entries(schema).filter(([k]) => k !== '$schema')),
  };
}

export function configJsonSchemaText(): string {
  return `${JSON.stringify(configJsonSchema(), null, 2)}\n`;
}
