import { Document } from 'yaml';
import { configJsonSchemaText } from '../config/json-schema.js';
import type { ApiCapabilities } from '../model/capabilities.js';
import {
  anyListKinds,
  anyObjectKinds,
  anySpaceFacets,
  collectionKind,
  listIn,
  valueIn,
} from '../kinds/registry.js';
import type { ExportContext } from '../kinds/types.js';
import type { AnyListKind } from '../kinds/shapes.js';
import type { LiveOrganization } from '../reconcile/index.js';

/** One file of an export: its path under the output folder, its YAML text, and warnings. */
export type ExportFile = { path: string; text: string };
export type ExportResult = { files: ExportFile[]; warnings: string[] };

const header = (schemaPath: string, what: string) =>
  ` yaml-language-server: $schema=${schemaPath}\n ${what}, exported by docsync from live state.`;

/** `a, b and c`. */
function sentence(parts: string[]): string {
  return parts.length < 2 ? parts.join('') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)!}`;
}

function yamlText(value: Record<string, unknown>, comment: string): string {
  const doc = new Document(value);
  doc.commentBefore = comment;
  return doc.toString({ lineWidth: 0 });
}

/**
 * The live state of one organization as docsync YAML: one file per site, one for teams, one for
 * custom fields and space values. Keys in a stable order; ids pinned where titles are not unique.
 * Share-link URLs are not part of the live model, so they cannot be exported.
 */
export const SCHEMA_FILE = 'docsync.schema.json';

/** A list kind that exports into one file with others: its file, header and entries. */
const inFile = (kind: AnyListKind) => ('file' in kind.export ? kind.export : undefined);

export function exportOrganization(
  org: LiveOrganization,
  /** Where the JSON Schema is, relative to the export's root; by default written alongside. */
  schemaPath = SCHEMA_FILE,
  /** SAML certificates by provider id (the live model keeps hashes only). */
  certificates: Map<string, string> = new Map(),
  caps: ApiCapabilities,
): ExportResult {
  const warnings: string[] = [];
  const files: ExportFile[] = [];
  const kinds: ExportContext = { org, warnings, files, secrets: certificates, caps };
  const spaceFacetValues = (space: object) => facetValues(org, space);
  if (schemaPath === SCHEMA_FILE) files.push({ path: SCHEMA_FILE, text: configJsonSchemaText() });
  const tree = collectionKind.export;
  files.push({
    path: tree.file,
    text: yamlText(
      { organization: org.id, ...tree.entries(org, spaceFacetValues, warnings) },
      header(schemaPath, tree.header),
    ),
  });
  // organization.yaml (the object kinds and the list kinds that join them), then the files list
  // kinds own, in the registry's order; a file with nothing in it is not written.
  for (const file of new Set([
    'organization.yaml',
    ...anyListKinds.flatMap((kind) => inFile(kind)?.file ?? []),
  ]))
    if (file !== tree.file) {
      const entries = { ...objectEntries(kinds, file), ...kindEntries(kinds, file) };
      if (Object.keys(entries).length === 0) continue;
      files.push({
        path: file,
        text: yamlText(
          { organization: org.id, ...entries },
          header(schemaPath, sentence(kindHeaders(file))) + kindNotes(kinds, file),
        ),
      });
    }
  // Kinds that write one file per entry (a site), each with its own header.
  for (const kind of anyListKinds)
    if ('each' in kind.export)
      for (const { path, header: what, entry } of kind.export.each(listIn(org, kind.key) ?? [], kinds)) {
        const up = '../'.repeat(path.split('/').length - 1);
        files.push({
          path,
          text: yamlText({ organization: org.id, [kind.key]: [entry] }, header(`${up}${schemaPath}`, what)),
        });
      }
  return { files, warnings };
}

/** What the list kinds that export into `file` contribute to it, by key. */
function kindEntries(kinds: ExportContext, file: string): Record<string, unknown> {
  return Object.fromEntries(
    anyListKinds
      .flatMap((kind) => {
        const out = inFile(kind);
        return out?.file === file ? [[kind.key, out.entries(listIn(kinds.org, kind.key), kinds)]] : [];
      })
      .filter(([, entries]) => entries !== undefined),
  );
}

/** What the list kinds that export into `file` hold, for its header. */
function kindHeaders(file: string): string[] {
  return [...anyObjectKinds.map((kind) => kind.export), ...anyListKinds.map(inFile)].flatMap((out) =>
    out?.file === file ? [out.header] : [],
  );
}

/** What the object kinds that export into `file` write in it (those read). */
function objectEntries(kinds: ExportContext, file: string): Record<string, unknown> {
  return Object.fromEntries(
    anyObjectKinds.flatMap((kind) => {
      const live = valueIn(kinds.org, kind.key);
      return kind.export.file === file && live !== undefined
        ? [[kind.key, kind.export.entry(live, kinds)]]
        : [];
    }),
  );
}

/** What the list kinds that export into `file` say in its header. */
function kindNotes(kinds: ExportContext, file: string): string {
  return anyListKinds
    .map((kind) => {
      const out = inFile(kind);
      return out?.file === file ? (out.note?.(kinds) ?? '') : '';
    })
    .join('');
}

/** A space's facets (its custom field values), as export writes them. */
function facetValues(org: LiveOrganization, space: object): Record<string, unknown> {
  return Object.fromEntries(
    anySpaceFacets
      .map((facet) => [facet.key, facet.export(listIn(space, facet.key), org)])
      .filter(([, value]) => value !== undefined),
  );
}
