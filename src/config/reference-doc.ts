import { stringify } from 'yaml';
import { configJsonSchema } from './json-schema.js';
import {
  alternativesOf,
  coverage,
  HUGE,
  isObject,
  partsOf,
  resolver,
  type Part,
  type Resolve,
  type Schema,
  type SharedPart,
} from './reference-parts.js';
import { KIND_DOCS, type KindDoc } from './reference-kinds.js';

/**
 * docs/configuration.md, generated (`npm run schema`) by walking the JSON Schema that zod makes of
 * the config schema: every key with its type, limits, whether it is required and what omitting it
 * means, and its zod description; per kind, the identity, pins, notes and an example from
 * KIND_DOCS. Pure: schema in, markdown out. The schema's parts are reference-parts.ts's.
 */

const code = (v: unknown) => `\`${typeof v === 'string' ? v : JSON.stringify(v)}\``;
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

const OMITTED = /\b(?:Omitted|If omitted|When omitted)[:,]\s*([^.]+)\./i;

/** A description without what the "if omitted" column already says. */
function withoutOmission(description: string): string {
  const rest = description
    .replace(OMITTED, '')
    .replace(/^Optional[.,;]\s*/, '')
    .trim();
  return rest.startsWith('null ') ? `\`null\`${rest.slice(4)}` : rest.charAt(0).toUpperCase() + rest.slice(1);
}

/** GitHub's heading anchor. */
export function anchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

function headingOf(path: string, doc: KindDoc | undefined): string {
  return `\`${path}\`${doc ? `: ${doc.title}` : ''}`;
}

/** What a row says of a key: its type, its limits, and what omitting it means. */
function describers(resolve: Resolve): {
  typeOf: (raw: Schema) => string;
  limitsOf: (raw: Schema) => string[];
  omission: (raw: Schema, required: boolean, topLevel: boolean) => string;
} {
  const typeOf = (raw: Schema): string => {
    const s = resolve(raw);
    if (s.anyOf || s.oneOf) {
      const parts = alternativesOf(s).map(typeOf);
      return [...new Set(parts)].join(' or ');
    }
    if (s.enum) return s.enum.map(code).join(', ');
    if (s.const !== undefined) return code(s.const);
    if (s.type === 'array') return `list of ${s.items ? plural(typeOf(s.items)) : 'values'}`;
    if (isObject(s)) return 'object';
    if (s.type === 'object') {
      const value = typeof s.additionalProperties === 'object' ? typeOf(s.additionalProperties) : 'any';
      return `map: name → ${value}`;
    }
    if (s.type === 'string' && s.format === 'uri') return 'URL';
    if (Array.isArray(s.type)) return s.type.join(' or ');
    return s.type ?? 'any';
  };
  const plural = (t: string) =>
    /^(string|integer|number|boolean|object|URL)$/.test(t) ? `${t === 'URL' ? 'URL' : t}s` : `(${t})`;

  const limitsOf = (raw: Schema): string[] => {
    const s = resolve(raw);
    if (s.anyOf || s.oneOf) return alternativesOf(s).flatMap(limitsOf);
    const out: string[] = [];
    const range = (min: number | undefined, max: number | undefined, unit: string) => {
      const lo = min !== undefined && min > (unit ? 0 : -HUGE) ? min : undefined;
      const hi = max !== undefined && max < HUGE ? max : undefined;
      if (lo !== undefined && hi !== undefined) out.push(lo === hi ? `${lo}${unit}` : `${lo}–${hi}${unit}`);
      else if (lo === 1 && unit === ' characters') out.push('non-empty');
      else if (lo !== undefined) out.push(`≥ ${lo}${unit}`);
      else if (hi !== undefined) out.push(`≤ ${hi}${unit}`);
    };
    if (s.type === 'string') range(s.minLength, s.maxLength, ' characters');
    if (s.type === 'integer' || s.type === 'number') range(s.minimum, s.maximum, '');
    if (s.pattern) out.push(`pattern ${code(s.pattern)}`);
    if (s.type === 'array') {
      range(s.minItems, s.maxItems, ' items');
      const each = s.items ? limitsOf(s.items) : [];
      if (each.length > 0) out.push(`each ${each.join(', ')}`);
    }
    if (s.type === 'object' && s.propertyNames) {
      const names = limitsOf(s.propertyNames);
      if (names.length > 0) out.push(`names ${names.join(', ')}`);
    }
    return out;
  };

  const omission = (raw: Schema, required: boolean, topLevel: boolean): string => {
    if (required) return '**required**';
    const s = resolve(raw);
    if (s.default !== undefined) return `default ${code(s.default)}`;
    const said = OMITTED.exec(s.description ?? '');
    if (said) return `optional; omitted: ${said[1]}`;
    const fallback = /\b[Dd]efault:?\s+([^\s.,;)]+)[.)]/.exec(s.description ?? '');
    if (fallback) return `optional; default ${fallback[1]}`;
    return topLevel ? 'optional; omitted: not managed (not even read)' : 'optional; omitted: not managed';
  };

  return { typeOf, limitsOf, omission };
}

/** What renderReference shares with each of its sections. */
type Render = {
  kinds: Record<string, KindDoc>;
  shared: Map<string, SharedPart>;
  table: (schema: Schema, topLevel: boolean, sectionPaths: Set<string>, path: string) => string[];
  sectionPaths: Set<string>;
  link: (path: string) => string;
};

/** One section of the reference: its heading, facts, tables (or link to the same keys), notes and example. */
function renderPart(out: string[], sec: Part, { kinds, shared, table, sectionPaths, link }: Render): void {
  const doc = kinds[sec.path];
  const heading = headingOf(sec.path, doc);
  const depth = Math.min(sec.path.split('.').length + 1, 4);
  out.push(`${'#'.repeat(depth)} ${heading}`, '');
  const facts: string[] = [];
  if (sec.schema.description) facts.push(sec.schema.description);
  if (doc?.identity) facts.push(`**Identity:** ${doc.identity}.`);
  const pins = sec.alternatives.some((a) => a.properties?.['id'] && !(a.required ?? []).includes('id'));
  if (pins && doc?.identity && !doc.identity.startsWith('`id`'))
    facts.push(
      '**Pin:** `id` (optional) ties the entry to a live resource by its id, so changing the identity renames it instead of replacing it.',
    );
  if (facts.length > 0) out.push(facts.join(' '), '');
  const same = shared.get(sec.path);
  if (same)
    out.push(
      `Same keys as ${link(same.same)}${same.nullable ? ', each of which may also be `null` here' : ''}.`,
      '',
    );
  else if (sec.alternatives.length > 1) {
    out.push(
      `One of: ${sec.alternatives.map((a) => `\`{ ${Object.keys(a.properties ?? {}).join(', ')} }\``).join(' or ')}.`,
      '',
    );
    for (const alt of sec.alternatives) out.push(...table(alt, false, sectionPaths, sec.path), '');
  } else out.push(...table(sec.schema, false, sectionPaths, sec.path), '');
  for (const note of doc?.notes ?? []) out.push(note, '');
  if (doc?.example !== undefined) {
    const key = sec.path.replace(/\[\]$/, '');
    out.push('```yaml', stringify({ [key]: doc.example }).trimEnd(), '```', '');
  }
}

export function renderReference(
  root: Schema = configJsonSchema() as Schema,
  kinds: Record<string, KindDoc> = KIND_DOCS,
): string {
  const resolve = resolver(root);
  const { typeOf, limitsOf, omission } = describers(resolve);

  const sections = partsOf(root);

  const table = (schema: Schema, topLevel: boolean, sectionPaths: Set<string>, path: string): string[] => {
    const lines = ['| key | type | limits | if omitted | description |', '| --- | --- | --- | --- | --- |'];
    for (const [key, raw] of Object.entries(schema.properties ?? {})) {
      const s = resolve(raw);
      const childPath = `${path ? `${path}.` : ''}${key}${s.type === 'array' ? '[]' : ''}`;
      const see = sectionPaths.has(childPath)
        ? ` See [${headingOf(childPath, kinds[childPath])}](#${anchor(headingOf(childPath, kinds[childPath]))}).`
        : '';
      lines.push(
        `| ${cell(code(key))} | ${cell(typeOf(s))} | ${cell(limitsOf(s).join('; '))} | ${cell(
          omission(s, (schema.required ?? []).includes(key), topLevel),
        )} | ${cell(`${withoutOmission(s.description ?? '')}${see}`.trim())} |`,
      );
    }
    return lines;
  };

  const sectionPaths = new Set(sections.map((s) => s.path));
  const { shared, coveredBy } = coverage(root);
  const link = (path: string) =>
    `[${headingOf(path, kinds[path])}](#${anchor(headingOf(path, kinds[path]))})`;
  const out: string[] = [INTRO];
  out.push('## Contents', '');
  out.push(`- [Top level](#top-level)`);
  for (const sec of sections.filter((s) => !coveredBy.has(s.path))) {
    const heading = headingOf(sec.path, kinds[sec.path]);
    out.push(`${'  '.repeat(sec.path.split('.').length - 1)}- [${heading}](#${anchor(heading)})`);
  }
  out.push('', '## Top level', '');
  if (root.description) out.push(root.description, '');
  out.push(...table(root, true, sectionPaths, ''), '');

  const render: Render = { kinds, shared, table, sectionPaths, link };
  for (const sec of sections.filter((s) => !coveredBy.has(s.path))) renderPart(out, sec, render);
  out.push(
    '## Complete examples',
    '',
    '[config/demo.yaml](../config/demo.yaml) is the desired state that `npm start` applies;',
    '[examples/config/every-kind.example.yaml](../examples/config/every-kind.example.yaml) uses every kind.',
    '',
  );
  return out.join('\n');
}

const INTRO = `<!-- Generated from the zod schema by \`npm run schema\` (src/config/reference-doc.ts). Do not edit by hand. -->

# Configuration reference (format v1)

A config folder holds any number of \`*.yaml\` / \`*.yml\` files, read recursively in path order
(hidden folders and \`node_modules\` are skipped). Each file describes one organization; several
files may describe the same organization as long as no resource is described twice (an error
names both places). Start each file with

\`\`\`yaml
# yaml-language-server: $schema=../schema/docsync.schema.json
\`\`\`

so editors complete and check keys ([schema/docsync.schema.json](../schema/docsync.schema.json) is
generated from the same zod schema as this page). \`docsync validate\` checks everything below
before any network call and reports every problem at once as
\`file:line:column: error[code] key.path: message\`. Unknown keys are errors.

**Omitting a key means "not managed"**: an omitted field is left as it is live; an omitted list
means docsync does not even read that kind. \`null\` clears a field where the type allows it. Every
field the API treats as optional on creation is optional here: omitted means the platform's
default on creation and unmanaged afterwards. Only keys marked **required** must be given. The
"if omitted" column says what omission means for each key.

**Identity** is how docsync pairs an entry with a live resource: an entry whose identity matches
no live resource is created; with \`policy.prune: true\`, a live resource that no entry matches is
deleted (otherwise it is listed as unmanaged). Members are the exception: they are removed only
with \`policy.pruneMembers: true\`, never through \`policy.prune\`. Changing the identity of an
entry therefore replaces the resource, unless the kind has a **pin**: an \`id\` that ties the
entry to one live resource, so that changing its title renames it.

**References** to live objects (a site space's \`space\`, a team member, a space entry's \`id\`, a
value of a custom field the file does not declare, a SAML \`defaultTeam\`, the default site) are
resolved when planning, against live state or what the same plan creates: one that nothing answers
is a plan error at its file, line and column, and nothing of that organization is applied.

**Renames.** Kinds whose key the API can rename take \`id\` (pin to a live id) and \`previously\`
(a list of earlier keys, when you do not want to look the id up): the resource is renamed in one
update instead of being replaced. Sites, teams, share links, section groups, collections, SAML
providers and translations; not OpenAPI specs (the API cannot rename a slug). Two live objects
sharing a key are reported as duplicates and left alone until one is pinned.

**Shared bases (\`extends\`).** Several organizations can share teams, access rules or sections:
an organization's file lists base files under \`extends\` (paths relative to it, inside the
repository; no symlinks). A base file is a config file without \`organization\`, and may extend
other bases. Its entries join the organization as if written in its file; an entry of the file
with the same identity **replaces the base's entry whole**, and \`policy\`/\`settings\` merge key by
key, the file winning. Plans list what came from a base and what replaced it (decision 28).

[examples/multi-org/](../examples/multi-org/) is a working example: two organizations that take
their teams and policy from one base.

**Variables.** \`\${DOCSYNC_VAR_NAME}\` in a string value is replaced with that environment
variable (\`hostname: docs.\${DOCSYNC_VAR_DOMAIN}\`); an unset one is a located error. Only the
\`DOCSYNC_VAR_\` namespace is expanded, never in keys and never where a secret comes from
(\`file:\`/\`env:\` values: secrets use \`DOCSYNC_SECRET_*\`); \`$\${x}\` writes a literal \`\${x}\`.

**Controls on any entry.** Besides its keys, any entry of a list (a site, a section, a team, a site
space…) may say \`ignore: [field, …]\` (those fields are not compared or written after creation)
and \`protect: true\` (no plan deletes or replaces it). They are the entry's own form of
\`policy.ignore\` and \`policy.protect\`: see [\`policy\`](#policy-safety-policy).

Input limits: 1 MiB per file, 100 alias expansions, 64 levels of nesting, UTF-8 only, no
duplicate keys, plain string keys.
`;
