import { writeFileSync } from 'node:fs';
import { configJsonSchemaText } from '../src/config/json-schema.js';

writeFileSync(new URL('../schema/docsync.schema.json', import.meta.url), configJsonSchemaText());
console.log('wrote schema/docsync.schema.json');
