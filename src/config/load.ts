import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { scanConfigFolder, type ConfigFolder } from './config-folder.js';
import { shownPaths } from './config-paths.js';
import { BoundedFileError, readBoundedFileSync } from '../secrets/bounded-file.js';
import {
  findRepositoryRoot,
  IndirectValueError,
  readIndirect,
  readIndirectSync,
  type IndirectContext,
  type IndirectErrorCode,
  type IndirectSource,
  type IndirectValue,
} from '../secrets/indirect.js';
import { anyListKinds, listIn } from '../kinds/registry.js';
import { certificateHash } from '../model/certificate.js';
import type { ApiCapabilities } from '../model/capabilities.js';
import type { CertificateRef } from '../model/desired.js';
import type { DesiredState } from '../reconcile/index.js';
import type { ConfigFileCache, FileResult } from './file-cache.js';
import type { ConfigIssue } from './issues.js';
import { extractEntryControls, rememberEntryControls } from './entry-controls.js';
import { normalize } from './normalize.js';
import { recordInherited, recordOrigins } from './origins.js';
import { reservedNameIssues } from './reserved.js';
import { applyExtends, diskBases, type Inherited } from './extends.js';
import { BaseFileSchema, ConfigFileSchema, type ConfigFile } from './schema.js';
import { expandVariables } from './variables.js';
import { capabilityIssues } from './absent.js';
import { checkSemantics, type ParsedConfig } from './semantic.js';
import { checkAccessRuleIssues } from './access-rules.js';
import {
  locate,
  locatorOf,
  MAX_FILE_BYTES,
  mayHoldAny,
  parseYamlFile,
  readByFastPath,
  type YamlFile,
} from './yaml-file.js';
import { fastSafeParse } from './fast-schema.js';
import { zodToIssues } from './zod-issues.js';

export type LoadResult = {
  desired: DesiredState | null;
  issues: ConfigIssue[];
  files: string[];
  /**
   * The certificates' contents as this load read them, by hash (only hashes enter the desired
   * state): an apply of a plan made from this load sends them without reading the files again.
   */
  certificates?: ReadonlyMap<string, string>;
  /** Entries that came from base files (`extends`), and the ones a file replaced. */
  inherited?: Inherited[];
};

/** The JSON Schema `docsync export` writes next to the YAML (named by each file's `$schema` line). */
const SCHEMA_FILE_NAME = 'docsync.schema.json';

export type LoadOptions = {
  env?: NodeJS.ProcessEnv;
  /** Indirect files must lie inside this folder; default: the repository holding each YAML file. */
  root?: string;
  /** Reuse files parsed by earlier loads when their content is unchanged (the daemon). */
  cache?: ConfigFileCache;
  /** Told the real path of every indirect file read (the folder scan's other files are those). */
  onIndirectFile?: (real: string) => void;
  /** The API the config is checked for: a kind it does not have is an error (`validate`). */
  capabilities?: ApiCapabilities;
};

type Parsed = ParsedConfig & { path?: string | undefined };
type IndirectRequest = {
  /** The config entry that asks for the value (its kind's `normalize` gets the reference by it). */
  entry: object;
  source: IndirectSource;
  ctx: IndirectContext;
  issue: (message: string, code: ConfigIssue['code']) => ConfigIssue;
};

/** The list kinds' `indirect` keys: an entry asks for an indirect value only under one of them. */
let indirectKeys: readonly string[] | undefined;

/** Every indirect value the configs ask for (the kinds' `indirect`), with where to report problems. */
function indirectRequests(parsed: Parsed[], opts: LoadOptions): IndirectRequest[] {
  const out: IndirectRequest[] = [];
  const keys = (indirectKeys ??= anyListKinds.flatMap((kind) => (kind.indirect ? [kind.indirect.key] : [])));
  for (const { yaml, config, path } of parsed) {
    // A file that writes none of the keys asks for nothing: its entries are not walked (issue 33).
    if (!mayHoldAny(yaml, keys)) continue;
    // The file's folder and repository, found at its first request: most files have none, and
    // resolving 665 paths was most of this walk (issue 33).
    let where: { baseDir: string; root: string } | undefined;
    const placed = () => {
      if (where) return where;
      const baseDir = dirname(resolve(path ?? yaml.file));
      return (where = { baseDir, root: opts.root ?? findRepositoryRoot(baseDir) });
    };
    for (const kind of anyListKinds) {
      const indirect = kind.indirect;
      if (!indirect) continue;
      listIn(config, kind.key)?.forEach((entry, i) => {
        const source = indirect.source(entry as never);
        if (!source) return;
        const under = indirect.under === undefined ? [] : [indirect.under];
        const at = [kind.key, i, indirect.key, ...under, 'file' in source ? 'file' : 'env'];
        const { baseDir, root } = placed();
        out.push({
          entry: entry as object,
          source,
          ctx: {
            baseDir,
            root,
            env: opts.env ?? process.env,
            maxChars: indirect.maxChars,
            content: indirect.content,
            ...(indirect.secret === false ? { secret: false } : {}),
          },
          issue: (message, code) => ({
            severity: 'error',
            code,
            file: yaml.file,
            ...locate(yaml, at, true),
            path: [`${kind.key}[${i}]`, indirect.key, ...under].join('.'),
            message,
          }),
        });
      });
    }
  }
  return out;
}

const INDIRECT_CODES: Record<IndirectErrorCode, ConfigIssue['code']> = {
  'outside-root': 'indirect-outside-root',
  'vcs-metadata': 'indirect-vcs-metadata',
  symlink: 'indirect-symlink',
  'invalid-content': 'indirect-invalid-content',
  'not-regular-file': 'indirect-not-file',
  'too-large': 'too-long',
  'read-failed': 'read-failed',
  'env-not-allowed': 'indirect-env-not-allowed',
  'env-unset': 'read-failed',
};

/** Only the hash and where the value comes from enter the desired state, never the content. */
function certificateRef({ source, ctx }: IndirectRequest, value: IndirectValue): CertificateRef {
  if ('env' in source) return { source: 'env', name: source.env, sha256: certificateHash(value.value) };
  // Relative to the working directory when inside it, so plans do not depend on where the repo is checked out.
  const full = resolve(ctx.baseDir, source.file);
  const rel = relative(process.cwd(), full);
  const path = rel.startsWith('..') || isAbsolute(rel) ? full : rel;
  return { source: 'file', path, sha256: certificateHash(value.value) };
}

/** Keep the content read for a certificate, by its hash (trimmed, as it is sent). */
function remember(contents: Map<string, string>, ref: CertificateRef, value: IndirectValue): CertificateRef {
  contents.set(ref.sha256, value.value.trim());
  return ref;
}

/** What the loader read through `file:`/`env:`: secrets by reference, documents by their text. */
type IndirectRead = {
  certificates: Map<object, CertificateRef>;
  /** Their contents, by hash (re-sent at apply without reading the files again: the daemon). */
  contents: Map<string, string>;
  documents: Map<object, string>;
};

const indirectRead = (): IndirectRead => ({
  certificates: new Map(),
  contents: new Map(),
  documents: new Map(),
});

/** A value read for a request: a document's text as it is, a secret's reference (its content kept by hash). */
function keep(read: IndirectRead, request: IndirectRequest, value: IndirectValue): void {
  if (request.ctx.secret === false) read.documents.set(request.entry, value.value);
  else read.certificates.set(request.entry, remember(read.contents, certificateRef(request, value), value));
}

function indirectIssue(request: IndirectRequest, error: unknown): ConfigIssue {
  if (!(error instanceof IndirectValueError)) throw error;
  return request.issue(error.message, INDIRECT_CODES[error.code]);
}

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

function parseEntries(
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

function finish(
  files: string[],
  parsed: Parsed[],
  issues: ConfigIssue[],
  read: IndirectRead,
  inherited: Inherited[],
): LoadResult {
  if (issues.some((i) => i.severity === 'error')) return { desired: null, issues, files };
  const contents = read.contents;
  const desired = normalize(
    parsed.map((p) => p.config),
    read.certificates,
    read.documents,
  );
  // Plan errors about a config value (an unresolved reference) point at its file, line and column.
  recordOrigins(desired.organizations, parsed);
  recordInherited(desired.organizations, inherited);
  return { desired, issues, files, certificates: contents, ...(inherited.length > 0 ? { inherited } : {}) };
}

/**
 * Validate files already in memory (tests and tools; `loadConfig` reads them from disk).
 * Indirect files are read synchronously here, with the same confinement.
 */
export function loadConfigFromBuffers(
  entries: { file: string; bytes: Buffer; path?: string }[],
  env: NodeJS.ProcessEnv = process.env,
  opts: Omit<LoadOptions, 'env'> = {},
): LoadResult {
  const { parsed, issues, inherited } = parseEntries(entries, { ...opts, env });
  const read = indirectRead();
  for (const request of indirectRequests(parsed, { ...opts, env })) {
    try {
      keep(read, request, readIndirectSync(request.source, request.ctx));
    } catch (error) {
      issues.push(indirectIssue(request, error));
    }
  }
  if (opts.capabilities) issues.push(...capabilityIssues(parsed, opts.capabilities));
  return finish(
    entries.map((e) => e.file),
    parsed,
    issues,
    read,
    inherited,
  );
}

/** Validate files in memory, reading indirect values without blocking the event loop. */
export async function loadConfigFromBuffersAsync(
  entries: { file: string; bytes: Buffer; path?: string }[],
  opts: LoadOptions = {},
): Promise<LoadResult> {
  const { parsed, issues, inherited } = parseEntries(entries, opts);
  const read = indirectRead();
  for (const request of indirectRequests(parsed, opts)) {
    try {
      const value = await readIndirect(request.source, request.ctx);
      if (value.path) opts.onIndirectFile?.(value.path);
      keep(read, request, value);
    } catch (error) {
      issues.push(indirectIssue(request, error));
    }
  }
  if (opts.capabilities) issues.push(...capabilityIssues(parsed, opts.capabilities));
  return finish(
    entries.map((e) => e.file),
    parsed,
    issues,
    read,
    inherited,
  );
}

/**
 * Where config paths are shown from: the root of the git repository that holds `dir` (the daemon's
 * checkout shows `config/demo.yaml`, never `../state/git/…/config/demo.yaml`); outside git, the
 * working directory when `dir` lies inside it, else the folder that holds `dir`
 * (`config/demo.yaml` rather than `../../etc/docsync/config/demo.yaml`).
 */
export function shownRoot(dir: string, cwd = process.cwd()): string {
  const root = findRepositoryRoot(dir);
  if (existsSync(join(root, '.git'))) return root;
  const rel = relative(cwd, resolve(dir));
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel)) ? cwd : dirname(resolve(dir));
}

/**
 * Load and validate the config folder. Never throws for bad input: problems come back as issues,
 * their files shown relative to `cwd` (default: the config repository's root, `shownRoot`).
 */
export async function loadConfig(
  dir: string,
  cwd = shownRoot(dir),
  opts: LoadOptions = {},
): Promise<LoadResult> {
  const shown = shownPaths(dir, cwd);
  const noConfig = (message: string): LoadResult => ({
    desired: null,
    files: [],
    issues: [
      { severity: 'error', code: 'no-config', file: shown(dir), line: 1, column: 1, path: '', message },
    ],
  });
  try {
    const info = await stat(dir);
    if (!info.isDirectory()) return noConfig('not a directory');
  } catch {
    return noConfig('config directory does not exist');
  }
  let folder: ConfigFolder;
  try {
    folder = await scanConfigFolder(dir);
  } catch {
    return noConfig('config directory cannot be read');
  }
  const skippedIssues = folder.skipped.map((entry) => fileIssue(shown(entry.path), entry));
  const { files } = folder;
  if (files.length === 0) {
    const none = noConfig('no *.yaml or *.yml files in the config directory');
    return { ...none, issues: [...none.issues, ...skippedIssues] };
  }
  const entries: { file: string; bytes: Buffer; path: string }[] = [];
  const readIssues: ConfigIssue[] = [...skippedIssues.filter((i) => i.severity === 'error')];
  for (const [index, file] of files.entries()) {
    // Read synchronously (see readConfigFile), giving the event loop a turn now and then.
    if (index > 0 && index % READS_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
    try {
      entries.push({ file: shown(file), bytes: readConfigFile(file), path: file });
    } catch (error) {
      if (error instanceof BoundedFileError) {
        readIssues.push(fileIssue(shown(file), { severity: 'error', ...refusedFile(error) }));
        continue;
      }
      readIssues.push(
        fileIssue(shown(file), {
          severity: 'error',
          code: 'read-failed',
          message: `cannot read file: ${(error as NodeJS.ErrnoException).code ?? 'error'}`,
        }),
      );
    }
  }
  const used = new Set<string>();
  const result = await loadConfigFromBuffersAsync(entries, {
    root: findRepositoryRoot(dir),
    ...opts,
    onIndirectFile: (real) => {
      used.add(real);
      opts.onIndirectFile?.(real);
    },
  });
  const unread = folder.others
    .filter((o) => !used.has(o.real) && basename(o.path) !== SCHEMA_FILE_NAME)
    .map((o) =>
      fileIssue(shown(o.path), {
        severity: 'warning',
        code: 'not-config',
        message: 'not read: only *.yaml and *.yml files are config (and the files they name with file:)',
      }),
    );
  const warnings = [...skippedIssues.filter((i) => i.severity === 'warning'), ...unread];
  if (readIssues.length > 0)
    return { desired: null, issues: [...readIssues, ...result.issues, ...warnings], files: result.files };
  return { ...result, issues: [...result.issues, ...warnings] };
}

/** Config files read between two turns of the event loop (a daemon keeps serving while it loads). */
const READS_PER_TURN = 64;

/**
 * A config file's bytes, never more than `MAX_FILE_BYTES` of them (src/secrets/bounded-file.ts).
 * Synchronous: five system calls on a small regular file, against five thread-pool round trips and
 * their promises (a seventh of the CPU on 665 files; issue 33, decision 42). The open is
 * non-blocking, so a FIFO or a device is refused without waiting.
 */
function readConfigFile(file: string): Buffer {
  try {
    return readBoundedFileSync(file, MAX_FILE_BYTES);
  } catch (error) {
    if (!(error instanceof BoundedFileError)) throw error;
    if (error.reason === 'open' || error.reason === 'read') throw error.cause;
    throw error;
  }
}

/** The issue for a config file the bounded reader refused. */
function refusedFile(error: BoundedFileError): { code: 'file-too-large' | 'not-config'; message: string } {
  if (error.reason === 'not-regular-file')
    return { code: 'not-config', message: 'not a regular file (a FIFO, socket or device is never config)' };
  const size = error.size === undefined ? `more than ${MAX_FILE_BYTES}` : String(error.size);
  return { code: 'file-too-large', message: `file is ${size} bytes; the limit is ${MAX_FILE_BYTES} bytes` };
}

/** An issue about a whole file (or folder) of the config folder. */
function fileIssue(
  file: string,
  what: { severity: ConfigIssue['severity']; code: ConfigIssue['code']; message: string },
): ConfigIssue {
  return { ...what, file, line: 1, column: 1, path: '' };
}
