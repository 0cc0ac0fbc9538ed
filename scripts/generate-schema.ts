import { writeFileSync } from 'node:fs';
import { configJsonSchemaText } from '../src/config/json-schema.js';
import { renderReference } from '../src/config/reference-doc.js';

writeFileSync(new URL('../schema/docsync.schema.json', import.meta.url), configJsonSchemaText());
console.log('wrote schema/docsync.schema.json');
writeFileSync(new URL('../docs/configuration.md', import.meta.url), renderReference());
console.log('wrote docs/configuration.md');
