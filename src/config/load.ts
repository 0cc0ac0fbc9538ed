import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { scanConfigFolder, type ConfigFolder } from './config-folder.js';
import { shownPaths } from './config-paths.js';
import { BoundedFileError, readBoundedFileSync } from '../secrets/bounded-file.js';
import { findRepositoryRoot, readIndirect, readIndirectSync } from '../secrets/indirect.js';
import type { ConfigIssue } from './issues.js';
import { normalize } from './normalize.js';
import { recordInherited, recordOrigins } from './origins.js';
import type { Inherited } from './extends.js';
import { capabilityIssues } from './absent.js';
import { MAX_FILE_BYTES } from './yaml-file.js';
import { indirectIssue, indirectRead, indirectRequests, keep, type IndirectRead } from './load-indirect.js';
import { parseEntries } from './load-parse.js';
import type { LoadOptions, LoadResult, Parsed } from './load-types.js';

export type { LoadOptions, LoadResult } from './load-types.js';

/** The JSON Schema `docsync export` writes next to the YAML (named by each file's `$schema` line). */
const SCHEMA_FILE_NAME = 'docsync.schema.json';

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
