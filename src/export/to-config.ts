import { Document } from 'yaml';
import { configJsonSchemaText } from '../config/json-schema.js';
import type { ApiCapabilities } from '../model/capabilities.js';
import {
  anySiteFacets,
  anyListKinds,
  anyObjectKinds,
  anySiteListKinds,
  anySpaceFacets,
  collectionKind,
  listIn,
} from '../kinds/registry.js';
import { duplicatesOf } from '../kinds/fields.js';
import type { ExportContext } from '../kinds/types.js';
import type { LiveOrganization, LiveSection, LiveSite, LiveSiteSpace } from '../model/index.js';

/** One file of an export: its path under the output folder, its YAML text, and warnings. */
export type ExportFile = { path: string; text: string };
export type ExportResult = { files: ExportFile[]; warnings: string[] };

const header = (schemaPath: string, what: string) =>
  ` yaml-language-server: $schema=${schemaPath}\n ${what}, exported by docsync from live state.`;

/** `a, b and c`. */
function sentence(parts: string[]): string {
  return parts.length < 2 ? parts.join('') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)!}`;
}

function slug(text: string, taken: Set<string>): string {
  const base =
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'site';
  let name = base;
  for (let n = 2; taken.has(name); n += 1) name = `${base}-${n}`;
  taken.add(name);
  return name;
}

function yamlText(value: Record<string, unknown>, comment: string): string {
  const doc = new Document(value);
  doc.commentBefore = comment;
  return doc.toString({ lineWidth: 0 });
}

const siteSpace = (ss: LiveSiteSpace) => ({
  space: ss.space,
  path: ss.path,
  ...(ss.condition !== null ? { condition: ss.condition } : {}),
  ...(ss.default ? { default: true } : {}),
});

/** Titles the config accepts; the platform names a section after its space, whatever its length. */
const SECTION_TITLE = { min: 2, max: 128 };

function section(s: LiveSection) {
  const titleFits = s.title.length >= SECTION_TITLE.min && s.title.length <= SECTION_TITLE.max;
  return {
    path: s.path,
    // A title the config cannot hold is left out: unmanaged, so the plan leaves it as it is.
    ...(titleFits ? { title: s.title } : {}),
    ...(s.icon !== null ? { icon: s.icon } : {}),
    ...(s.description !== null ? { description: s.description } : {}),
    ...(s.condition !== null ? { condition: s.condition } : {}),
    ...(s.default ? { default: true } : {}),
    spaces: s.spaces.map(siteSpace),
  };
}

function site(l: LiveSite, pin: boolean, warnings: string[], caps: ApiCapabilities) {
  const sections = (l.sections ?? []).filter((s) => {
    if (s.spaces.length > 0) return true;
    warnings.push(
      `site "${l.title}": section "${s.path}" has no site spaces and cannot be described; left out (unmanaged)`,
    );
    return false;
  });
  const rootSpaces = l.spaces ?? [];
  if (sections.length > 0 && rootSpaces.length > 0)
    warnings.push(`site "${l.title}" has both sections and root site spaces; only the sections are exported`);
  const exported = new Set(sections.map((s) => s.id));
  const dupGroups = duplicatesOf((l.sectionGroups ?? []).map((g) => g.title));
  const groups = (l.sectionGroups ?? []).map((g) => ({
    title: g.title,
    ...(dupGroups.has(g.title) ? { id: g.id } : {}),
    ...(g.icon !== null ? { icon: g.icon } : {}),
    sections: sections.filter((s) => s.group === g.id && exported.has(s.id)).map((s) => s.path),
  }));
  return {
    title: l.title,
    ...(pin ? { id: l.id } : {}),
    visibility: l.visibility,
    ...(l.basename !== null ? { basename: l.basename } : {}),
    ...(l.agentsContext !== null ? { agentsContext: l.agentsContext } : {}),
    ...(l.adaptiveContent !== null ? { adaptiveContent: { enabled: l.adaptiveContent.enabled } } : {}),
    ...(l.proxy !== null ? { proxy: l.proxy } : {}),
    ...Object.fromEntries(
      anySiteFacets.flatMap((f) => {
        const value = f.export((l as Record<string, unknown>)[f.key], caps);
        return value === undefined ? [] : [[f.key, value]];
      }),
    ),
    ...Object.fromEntries(anySiteListKinds.map((kind) => [kind.key, kind.export(listIn(l, kind.key) ?? [])])),
    ...(sections.length > 0 ? { sections: sections.map(section) } : {}),
    ...(sections.length > 0 ? { sectionGroups: groups } : {}),
    ...(sections.length === 0 ? { spaces: rootSpaces.map(siteSpace) } : {}),
  };
}

/**
 * The live state of one organization as docsync YAML: one file per site, one for teams, one for
 * custom fields and space values. Keys in a stable order; ids pinned where titles are not unique.
 * Share-link URLs are not part of the live model, so they cannot be exported.
 */
export const SCHEMA_FILE = 'docsync.schema.json';

/** Files export writes itself; list kinds may add their keys to them (or own a file of their own). */
const BUILT_IN_FILES = ['organization.yaml', collectionKind.export.file];

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
  /** What the list kinds that export into `file` contribute to it, by key. */
  const kindEntries = (file: string): Record<string, unknown> =>
    Object.fromEntries(
      anyListKinds
        .filter((kind) => kind.export.file === file)
        .map((kind) => [kind.key, kind.export.entries(listIn(org, kind.key), kinds)])
        .filter(([, entries]) => entries !== undefined),
    );
  /** What the list kinds that export into `file` hold, for its header. */
  const kindHeaders = (file: string): string[] =>
    [...anyObjectKinds, ...anyListKinds].flatMap((kind) =>
      kind.export.file === file ? [kind.export.header] : [],
    );
  /** What the object kinds that export into `file` write in it (those read). */
  const objectEntries = (file: string): Record<string, unknown> =>
    Object.fromEntries(
      anyObjectKinds.flatMap((kind) => {
        const live = (org as Record<string, unknown>)[kind.key];
        return kind.export.file === file && live !== undefined
          ? [[kind.key, kind.export.entry(live, kinds)]]
          : [];
      }),
    );
  /** What the list kinds that export into `file` say in its header. */
  const kindNotes = (file: string): string =>
    anyListKinds
      .filter((kind) => kind.export.file === file)
      .map((kind) => kind.export.note?.(kinds) ?? '')
      .join('');
  /** A space's facets (its custom field values), as export writes them. */
  const spaceFacetValues = (space: object): Record<string, unknown> =>
    Object.fromEntries(
      anySpaceFacets
        .map((facet) => [facet.key, facet.export(listIn(space, facet.key), org)])
        .filter(([, value]) => value !== undefined),
    );
  if (schemaPath === SCHEMA_FILE) files.push({ path: SCHEMA_FILE, text: configJsonSchemaText() });
  const tree = collectionKind.export;
  files.push({
    path: tree.file,
    text: yamlText(
      { organization: org.id, ...tree.entries(org, spaceFacetValues, warnings) },
      header(schemaPath, tree.header),
    ),
  });
  const orgEntries = { ...objectEntries('organization.yaml'), ...kindEntries('organization.yaml') };
  if (Object.keys(orgEntries).length > 0)
    files.push({
      path: 'organization.yaml',
      text: yamlText(
        { organization: org.id, ...orgEntries },
        header(schemaPath, sentence(kindHeaders('organization.yaml'))) + kindNotes('organization.yaml'),
      ),
    });
  // Files a list kind owns (its own YAML file), in the registry's order.
  for (const file of new Set(anyListKinds.map((kind) => kind.export.file)))
    if (!BUILT_IN_FILES.includes(file)) {
      const entries = kindEntries(file);
      if (Object.keys(entries).length === 0) continue;
      files.push({
        path: file,
        text: yamlText(
          { organization: org.id, ...entries },
          header(schemaPath, sentence(kindHeaders(file))) + kindNotes(file),
        ),
      });
    }
  const sites = org.sites ?? [];
  const dupSites = duplicatesOf(sites.map((s) => s.title));
  const taken = new Set<string>();
  for (const l of sites) {
    files.push({
      path: `sites/${slug(l.title, taken)}.yaml`,
      text: yamlText(
        { organization: org.id, sites: [site(l, dupSites.has(l.title), warnings, caps)] },
        header(`../${schemaPath}`, `Site "${l.title}"`),
      ),
    });
  }
  return { files, warnings };
}
