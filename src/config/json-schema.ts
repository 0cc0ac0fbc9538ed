import { z } from 'zod';
import { ConfigFileSchema } from './schema.js';

/** The JSON Schema of the config format, generated from the zod schema (one source of truth). */
export function configJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(ConfigFileSchema, { target: 'draft-7', io: 'input' }) as Record<
    string,
    unknown
  >;
  addEntryControls(schema, true);
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: 'https://docsync.dev/schema/docsync.schema.json',
    title: 'docsync configuration (format v1)',
    ...Object.fromEntries(Object.entries(schema).filter(([k]) => k !== '$schema')),
  };
}

type Node = { type?: unknown; properties?: Record<string, Node>; items?: Node };

/** The entry-level controls (src/config/entry-controls.ts), which the loader takes out before zod. */
const ENTRY_CONTROLS: Record<string, Node> = {
  ignore: {
    type: 'array',
    items: { type: 'string', minLength: 1 } as Node,
    minItems: 1,
    description:
      'Fields of this entry docsync neither compares nor writes once the resource exists (a creation still sends them); the plan lists the live differences it ignored. See policy.ignore.',
  } as Node,
  protect: {
    type: 'boolean',
    description:
      'No plan may delete or replace this resource (refused; no flag overrides it). See policy.protect.',
  } as Node,
};

/** Every entry of a list of objects (not `policy`) accepts `ignore` and `protect`, nested lists too. */
function addEntryControls(node: Node, root = false): void {
  for (const [key, value] of Object.entries(node.properties ?? {})) {
    if (root && key === 'policy') continue;
    const items = value.type === 'array' ? value.items : undefined;
    if (items?.type === 'object' && items.properties) {
      items.properties = { ...items.properties, ...ENTRY_CONTROLS };
      addEntryControls(items);
    }
  }
}

export function configJsonSchemaText(): string {
  return `${JSON.stringify(configJsonSchema(), null, 2)}\n`;
}
