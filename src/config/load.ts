import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
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
import type { CertificateRef } from '../model/desired.js';
import type { DesiredState } from '../model/desired.js';
import type { ConfigFileCache, FileResult } from './file-cache.js';
import type { ConfigIssue } from './issues.js';
import { normalize } from './normalize.js';
import { ConfigFileSchema } from './schema.js';
import { checkSemantics, type ParsedConfig } from './semantic.js';
import { locate, parseYamlFile } from './yaml-file.js';
import { zodToIssues } from './zod-issues.js';

export type LoadResult = {
  desired: DesiredState | null;
  issues: ConfigIssue[];
  files: string[];
};

const MAX_FILES = 10_000;

/** Every `*.yaml`/`*.yml` under `dir`, recursively, sorted by path; hidden folders and node_modules skipped. */
export async function listConfigFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  async function walk(current: string): Promise<void> {
    const entries = await readdir(current, { withFileTypes: true });
    for (const entry of entries) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const full = join(current, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile() && /\.ya?ml$/i.test(entry.name)) out.push(full);
      if (out.length > MAX_FILES) return;
    }
  }
  await walk(dir);
  return out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

export type LoadOptions = {
  env?: NodeJS.ProcessEnv;
  /** Indirect files must lie inside this folder; default: the repository holding each YAML file. */
  root?: string;
  /** Reuse files parsed by earlier loads when their content is unchanged (the daemon). */
  cache?: ConfigFileCache;
};

type Parsed = ParsedConfig & { path?: string | undefined };
type IndirectRequest = {
  /** The config entry that asks for the value (its kind's `normalize` gets the reference by it). */
  entry: object;
  source: IndirectSource;
  ctx: IndirectContext;
  issue: (message: string, code: ConfigIssue['code']) => ConfigIssue;
};

/** Every indirect value the configs ask for (the kinds' `indirect`), with where to report problems. */
function indirectRequests(parsed: Parsed[], opts: LoadOptions): IndirectRequest[] {
  const out: IndirectRequest[] = [];
  for (const { yaml, config, path } of parsed) {
    const baseDir = dirname(resolve(path ?? yaml.file));
    const root = opts.root ?? findRepositoryRoot(baseDir);
    for (const kind of anyListKinds) {
      const indirect = kind.indirect;
      if (!indirect) continue;
      listIn(config, kind.key)?.forEach((entry, i) => {
        const source = indirect.source(entry as never);
        if (!source) return;
        const at = [kind.key, i, indirect.key, 'file' in source ? 'file' : 'env'];
        out.push({
          entry: entry as object,
          source,
          ctx: { baseDir, root, env: opts.env ?? process.env, maxChars: indirect.maxChars },
          issue: (message, code) => ({
            severity: 'error',
            code,
            file: yaml.file,
            ...locate(yaml, at),
            path: `${kind.key}[${i}].${indirect.key}`,
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

function indirectIssue(request: IndirectRequest, error: unknown): ConfigIssue {
  if (!(error instanceof IndirectValueError)) throw error;
  return request.issue(error.message, INDIRECT_CODES[error.code]);
}

/** One file on its own: YAML, then the schema. */
function parseFile(file: string, bytes: Buffer): FileResult {
  const yaml = parseYamlFile(file, bytes);
  if (Array.isArray(yaml)) return { issues: yaml };
  const result = ConfigFileSchema.safeParse(yaml.value);
  if (!result.success) return { issues: zodToIssues(ConfigFileSchema, yaml, result.error) };
  return { yaml, config: result.data };
}

function parseEntries(
  entries: { file: string; bytes: Buffer; path?: string }[],
  cache?: ConfigFileCache,
): {
  parsed: Parsed[];
  issues: ConfigIssue[];
} {
  const issues: ConfigIssue[] = [];
  const parsed: Parsed[] = [];
  for (const { file, bytes, path } of entries) {
    const result = cache ? cache.get(file, bytes, () => parseFile(file, bytes)) : parseFile(file, bytes);
    if ('issues' in result) issues.push(...result.issues);
    else parsed.push({ ...result, path });
  }
  cache?.keepOnly(entries.map((e) => e.file));
  issues.push(...checkSemantics(parsed));
  return { parsed, issues };
}

function finish(
  files: string[],
  parsed: Parsed[],
  issues: ConfigIssue[],
  certificates: Map<object, CertificateRef>,
): LoadResult {
  if (issues.some((i) => i.severity === 'error')) return { desired: null, issues, files };
  return {
    desired: normalize(
      parsed.map((p) => p.config),
      certificates,
    ),
    issues,
    files,
  };
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
  const { parsed, issues } = parseEntries(entries);
  const map = new Map<object, CertificateRef>();
  for (const request of indirectRequests(parsed, { ...opts, env })) {
    try {
      map.set(request.entry, certificateRef(request, readIndirectSync(request.source, request.ctx)));
    } catch (error) {
      issues.push(indirectIssue(request, error));
    }
  }
  return finish(
    entries.map((e) => e.file),
    parsed,
    issues,
    map,
  );
}

/** Validate files in memory, reading indirect values without blocking the event loop. */
export async function loadConfigFromBuffersAsync(
  entries: { file: string; bytes: Buffer; path?: string }[],
  opts: LoadOptions = {},
): Promise<LoadResult> {
  const { parsed, issues } = parseEntries(entries, opts.cache);
  const map = new Map<object, CertificateRef>();
  for (const request of indirectRequests(parsed, opts)) {
    try {
      map.set(request.entry, certificateRef(request, await readIndirect(request.source, request.ctx)));
    } catch (error) {
      issues.push(indirectIssue(request, error));
    }
  }
  return finish(
    entries.map((e) => e.file),
    parsed,
    issues,
    map,
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
  const shown = (file: string) => relative(cwd, file) || file;
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
  const files = await listConfigFiles(dir);
  if (files.length === 0) return noConfig('no *.yaml or *.yml files in the config directory');
  const entries: { file: string; bytes: Buffer; path: string }[] = [];
  const readIssues: ConfigIssue[] = [];
  for (const file of files) {
    try {
      entries.push({ file: shown(file), bytes: await readFile(file), path: file });
    } catch (error) {
      readIssues.push({
        severity: 'error',
        code: 'read-failed',
        file: shown(file),
        line: 1,
        column: 1,
        path: '',
        message: `cannot read file: ${(error as NodeJS.ErrnoException).code ?? 'error'}`,
      });
    }
  }
  const result = await loadConfigFromBuffersAsync(entries, { root: findRepositoryRoot(dir), ...opts });
  if (readIssues.length > 0)
    return { desired: null, issues: [...readIssues, ...result.issues], files: result.files };
  return result;
}
