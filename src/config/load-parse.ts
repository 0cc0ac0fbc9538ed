import type { FileResult } from './file-cache.js';
import type { ConfigIssue } from './issues.js';
import type { LoadOptions, Parsed } from './load-types.js';
import { extractEntryControls, rememberEntryControls } from './entry-controls.js';
import { reservedNameIssues } from './reserved.js';
import { applyExtends, diskBases, type Inherited } from './extends.js';
import { BaseFileSchema, ConfigFileSchema, type ConfigFile } from './schema.js';
import { expandVariables } from './variables.js';
import { checkSemantics } from './semantic.js';
import { checkAccessRuleIssues } from './access-rules.js';
import { locatorOf, parseYamlFile, readByFastPath, type YamlFile } from './yaml-file.js';
import { fastSafeParse } from './fast-schema.js';
import { zodToIssues } from './zod-issues.js';

/**
 * The config files parsed, beside load.ts, which reads them: each file on its own (YAML, variables,
 * schema), then the files together (their bases, the checks across files).
 */

/** One file on its own: YAML, its variables, then the schema (a file without `organization` is a base). */
function parseFile(file: string, bytes: Buffer, env: NodeJS.ProcessEnv): FileResult {
  const yaml = parseYamlFile(file, bytes);
  if (Array.isArray(yaml)) return { issues: yaml };
  const reserved = reservedNameIssues(yaml);
  if (reserved.length > 0) return { issues: reserved };
  let value = yaml.value;
  if (bytes.includes('${')) {
    const expanded = expandVariables(yaml, env);
    if (expanded.issues.length > 0) return { issues: expanded.issues };
    value = expanded.value;
  }
  const entry = extractEntryControls(yaml, value);
  if (entry.issues.length > 0) return { issues: entry.issues };
  value = entry.value;
  if (isBase(value)) {
    const base = BaseFileSchema.safeParse(value);
    if (!base.success)
      return { issues: zodToIssues(ConfigFileSchema, yaml, ConfigFileSchema.safeParse(value).error!) };
    // What the file is wrong in when no file extends it: then it is an organization's file without `organization`.
    const orphan = zodToIssues(ConfigFileSchema, yaml, ConfigFileSchema.safeParse(value).error!).map((i) =>
      i.path === 'organization'
        ? { ...i, message: `${i.message} (a file without it is a base, and no file names it in \`extends\`)` }
        : i,
    );
    rememberEntryControls(base.data as ConfigFile, entry.controls);
    return { yaml: locatorOf(yaml), config: base.data as ConfigFile, base: orphan };
  }
  // A tree the fast path read, valid: zod's answer without zod's cost (fast-schema.ts); else zod.
  const fast = readByFastPath(yaml) ? fastSafeParse(ConfigFileSchema, value) : undefined;
  const result = fast ? { success: true as const, data: fast } : ConfigFileSchema.safeParse(value);
  if (!result.success) return { issues: zodToIssues(ConfigFileSchema, yaml, result.error) };
  rememberEntryControls(result.data, entry.controls);
  // Without the parsed YAML: the schema's copy is what the rest uses; the YAML tree of every file
  // would otherwise live on, beside it, until all are loaded (decision 42).
  return { yaml: locatorOf(yaml), config: result.data };
}

/** A mapping without `organization`: a base that organizations' files extend. */
function isBase(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !('organization' in value);
}

export function parseEntries(
  entries: { file: string; bytes: Buffer; path?: string }[],
  opts: LoadOptions,
): {
  parsed: Parsed[];
  issues: ConfigIssue[];
  inherited: Inherited[];
} {
  const env = opts.env ?? process.env;
  const issues: ConfigIssue[] = [];
  const parsed: Parsed[] = [];
  const bases: (Parsed & { orphan: ConfigIssue[] })[] = [];
  const cache = opts.cache;
  for (const { file, bytes, path } of entries) {
    const parse = () => parseFile(file, bytes, env);
    const result = cache ? cache.get(file, bytes, parse) : parse();
    if ('issues' in result) issues.push(...result.issues);
    else if (result.base) bases.push({ yaml: result.yaml, config: result.config, path, orphan: result.base });
    else parsed.push({ yaml: result.yaml, config: result.config, path });
  }
  cache?.keepOnly(entries.map((e) => e.file));
  const readBase = diskBases(
    (shown, bytes) => {
      const result = parseFile(shown, bytes, env);
      if ('issues' in result) return { issues: result.issues };
      if (!result.base)
        return { issues: [baseIssue(result.yaml, 'a base file must not name an organization')] };
      return { layer: { yaml: result.yaml, config: result.config } };
    },
    { env, ...(opts.root ? { root: opts.root } : {}) },
  );
  const expanded = applyExtends(parsed, readBase);
  issues.push(...expanded.issues);
  const used = new Set(expanded.files.map((f) => f.path).filter((p) => p !== undefined));
  for (const base of bases) if (base.path === undefined || !used.has(base.path)) issues.push(...base.orphan);
  issues.push(...checkSemantics(expanded.files));
  issues.push(...checkAccessRuleIssues(expanded.files));
  return { parsed: expanded.files, issues, inherited: expanded.inherited };
}

function baseIssue(yaml: YamlFile, message: string): ConfigIssue {
  return {
    severity: 'error',
    code: 'invalid-extends',
    file: yaml.file,
    line: 1,
    column: 1,
    path: '',
    message,
  };
}
