import type { Dirent, Stats } from 'node:fs';
import { lstat, readdir, readlink, realpath, stat } from 'node:fs/promises';
import { isAbsolute, normalize, relative, sep } from 'node:path';
import { childPath } from './config-paths.js';
import { isVcsMetadata } from '../secrets/indirect.js';
import type { ConfigIssue } from './issues.js';

/**
 * The config folder: which files are read as config, and what else is there (each reported, none
 * skipped silently). Split from load.ts, which reads and checks what this finds.
 */

const MAX_FILES = 10_000;

/** Something in the config folder that is not read as config, and why. */
export type SkippedEntry = {
  path: string;
  severity: 'error' | 'warning';
  code: ConfigIssue['code'];
  message: string;
};

/** What the config folder holds: the YAML files to read, and everything else. */
export type ConfigFolder = {
  files: string[];
  /** Entries never read (each one reported: nothing is skipped silently). */
  skipped: SkippedEntry[];
  /** Other regular files: fine when the config reads them as indirect values, reported otherwise. */
  others: { path: string; real: string }[];
};

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function isWithin(real: string, root: string): boolean {
  const rel = relative(root, real);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** One scan of a config folder: what it found so far, and where it has been. */
type Scan = {
  rootReal: string;
  files: string[];
  skipped: SkippedEntry[];
  others: ConfigFolder['others'];
  /** Files met, by real path: each is read once, however many links lead to it. */
  seen: Set<string>;
  /** Folders walked, by real path. */
  walked: Set<string>;
  /** Links are followed after every regular entry is known, so a file is named by its own path. */
  links: { full: string; name: string; hidden: boolean }[];
};

/**
 * Every `*.yaml`/`*.yml` under `dir`, recursively, sorted by path. A symlink is followed only when
 * its target lies inside the folder (each file is read once, however many links lead to it);
 * one pointing elsewhere, a broken one, an unreadable folder or a special file is an error, and a
 * hidden entry, `node_modules` or a file of another type is a warning unless the config reads it.
 * VCS metadata (`.git`…) is never config and is the one thing passed over without a word.
 */
export async function scanConfigFolder(dir: string): Promise<ConfigFolder> {
  const rootReal = await realpath(dir);
  const scan: Scan = {
    rootReal,
    files: [],
    skipped: [],
    others: [],
    seen: new Set<string>(),
    walked: new Set<string>([rootReal]),
    links: [],
  };
  const { files, skipped, others, links } = scan;
  await walk(scan, normalize(dir), rootReal);
  for (let next = links.shift(); next; next = links.shift()) {
    try {
      await visit(scan, next.full, '', next.name, next.hidden, true);
    } catch (error) {
      readFailed(scan, next.full, error);
    }
    if (files.length > MAX_FILES) break;
  }
  return { files: files.sort(byName), skipped, others };
}

/** Report an entry that is not read as config. */
function skip(
  scan: Scan,
  path: string,
  severity: SkippedEntry['severity'],
  code: ConfigIssue['code'],
  message: string,
): void {
  scan.skipped.push({ path, severity, code, message });
}

/** A regular file, once per real path: config when its name says YAML, else one of the others. */
function visitFile(scan: Scan, full: string, real: string, name: string): void {
  if (scan.seen.has(real)) return;
  scan.seen.add(real);
  if (/\.ya?ml$/i.test(name)) scan.files.push(full);
  else scan.others.push({ path: full, real });
}

/** One entry of the folder: a config file, another file, a folder to walk, or something reported as skipped. */
async function visit(
  scan: Scan,
  full: string,
  parentReal: string,
  name: string,
  hidden: boolean,
  followLink = false,
  known?: Stats | Dirent,
): Promise<void> {
  // The folder listing already tells the type (one lstat per entry only when it cannot).
  const info = known ?? (await lstat(full));
  let real = childPath(parentReal, name);
  let target: Stats | Dirent = info;
  if (info.isSymbolicLink() && !followLink) {
    scan.links.push({ full, name, hidden });
    return;
  }
  if (info.isSymbolicLink()) {
    const link = await readlink(full).catch(() => '?');
    try {
      real = await realpath(full);
      target = await stat(real);
    } catch {
      return skip(scan, full, 'error', 'config-symlink', `symbolic link to ${link}, which does not exist`);
    }
    if (!isWithin(real, scan.rootReal))
      return skip(
        scan,
        full,
        'error',
        'config-symlink',
        `symbolic link to ${link}, outside the config folder: links are followed only to files inside it`,
      );
    // The config folder may be the repository's root: `.git` is inside it, and never config.
    const vcs = relative(scan.rootReal, real).split(sep).find(isVcsMetadata);
    if (vcs)
      return skip(
        scan,
        full,
        'error',
        'config-symlink',
        `symbolic link to ${link}, into version control metadata (${vcs}): it is never config`,
      );
  }
  if (target.isDirectory()) {
    if (hidden)
      return skip(
        scan,
        full,
        'warning',
        'not-config',
        'folder not read (hidden folders and node_modules are not config)',
      );
    if (scan.walked.has(real)) return;
    scan.walked.add(real);
    return walk(scan, full, real);
  }
  if (!target.isFile())
    return skip(
      scan,
      full,
      'error',
      'not-config',
      'not a regular file (a FIFO, socket or device is never config)',
    );
  if (hidden)
    return skip(
      scan,
      full,
      'warning',
      'not-config',
      'hidden file not read (only visible *.yaml and *.yml files are config)',
    );
  return visitFile(scan, full, real, name);
}

/** An entry that could not be read (a permission, a file gone since the folder was listed): skipped. */
function readFailed(scan: Scan, full: string, error: unknown): void {
  skip(
    scan,
    full,
    'error',
    'read-failed',
    `cannot read: ${(error as NodeJS.ErrnoException).code ?? 'error'}`,
  );
}

/** One folder's entries, in name order (a link is put aside, to be followed after the walk). */
async function walk(scan: Scan, current: string, currentReal: string): Promise<void> {
  let entries: Dirent[];
  try {
    entries = (await readdir(current, { withFileTypes: true })).sort((a, b) => byName(a.name, b.name));
  } catch (error) {
    return skip(
      scan,
      current,
      'error',
      'read-failed',
      `cannot read folder: ${(error as NodeJS.ErrnoException).code ?? 'error'}`,
    );
  }
  for (const entry of entries) {
    const name = entry.name;
    if (isVcsMetadata(name)) continue;
    const full = childPath(current, name);
    const hidden = name.startsWith('.') || name === 'node_modules';
    try {
      await visit(scan, full, currentReal, name, hidden, false, typed(entry) ? entry : undefined);
    } catch (error) {
      readFailed(scan, full, error);
    }
    if (scan.files.length > MAX_FILES) return;
  }
}

/** Whether the listing told an entry's type (some file systems leave it unknown). */
function typed(entry: Dirent): boolean {
  return (
    entry.isFile() ||
    entry.isDirectory() ||
    entry.isSymbolicLink() ||
    entry.isFIFO() ||
    entry.isSocket() ||
    entry.isBlockDevice() ||
    entry.isCharacterDevice()
  );
}

/** Every config file under `dir` (see `scanConfigFolder`). */
export async function listConfigFiles(dir: string): Promise<string[]> {
  return (await scanConfigFolder(dir)).files;
}
