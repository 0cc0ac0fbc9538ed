import type { Dirent, Stats } from 'node:fs';
import { lstat, readdir, readlink, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
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

/**
 * Every `*.yaml`/`*.yml` under `dir`, recursively, sorted by path. A symlink is followed only when
 * its target lies inside the folder (each file is read once, however many links lead to it);
 * one pointing elsewhere, a broken one, an unreadable folder or a special file is an error, and a
 * hidden entry, `node_modules` or a file of another type is a warning unless the config reads it.
 * VCS metadata (`.git`…) is never config and is the one thing passed over without a word.
 */
export async function scanConfigFolder(dir: string): Promise<ConfigFolder> {
  const files: string[] = [];
  const skipped: SkippedEntry[] = [];
  const others: ConfigFolder['others'] = [];
  const rootReal = await realpath(dir);
  const seen = new Set<string>();
  const walked = new Set<string>([rootReal]);
  const skip = (
    path: string,
    severity: SkippedEntry['severity'],
    code: ConfigIssue['code'],
    message: string,
  ) => {
    skipped.push({ path, severity, code, message });
  };
  function visitFile(full: string, real: string, name: string): void {
    if (seen.has(real)) return;
    seen.add(real);
    if (/\.ya?ml$/i.test(name)) files.push(full);
    else others.push({ path: full, real });
  }
  /** Links are followed after every regular entry is known, so a file is named by its own path. */
  const links: { full: string; name: string; hidden: boolean }[] = [];
  async function visit(
    full: string,
    parentReal: string,
    name: string,
    hidden: boolean,
    followLink = false,
    known?: Stats | Dirent,
  ): Promise<void> {
    // The folder listing already tells the type (one lstat per entry only when it cannot).
    const info = known ?? (await lstat(full));
    let real = join(parentReal, name);
    let target: Stats | Dirent = info;
    if (info.isSymbolicLink() && !followLink) {
      links.push({ full, name, hidden });
      return;
    }
    if (info.isSymbolicLink()) {
      const link = await readlink(full).catch(() => '?');
      try {
        real = await realpath(full);
        target = await stat(real);
      } catch {
        return skip(full, 'error', 'config-symlink', `symbolic link to ${link}, which does not exist`);
      }
      if (!isWithin(real, rootReal))
        return skip(
          full,
          'error',
          'config-symlink',
          `symbolic link to ${link}, outside the config folder: links are followed only to files inside it`,
        );
      // The config folder may be the repository's root: `.git` is inside it, and never config.
      const vcs = relative(rootReal, real).split(sep).find(isVcsMetadata);
      if (vcs)
        return skip(
          full,
          'error',
          'config-symlink',
          `symbolic link to ${link}, into version control metadata (${vcs}): it is never config`,
        );
    }
    if (target.isDirectory()) {
      if (hidden)
        return skip(
          full,
          'warning',
          'not-config',
          'folder not read (hidden folders and node_modules are not config)',
        );
      if (walked.has(real)) return;
      walked.add(real);
      return walk(full, real);
    }
    if (!target.isFile())
      return skip(
        full,
        'error',
        'not-config',
        'not a regular file (a FIFO, socket or device is never config)',
      );
    if (hidden)
      return skip(
        full,
        'warning',
        'not-config',
        'hidden file not read (only visible *.yaml and *.yml files are config)',
      );
    return visitFile(full, real, name);
  }
  async function walk(current: string, currentReal: string): Promise<void> {
    let entries: Dirent[];
    try {
      entries = (await readdir(current, { withFileTypes: true })).sort((a, b) => byName(a.name, b.name));
    } catch (error) {
      return skip(
        current,
        'error',
        'read-failed',
        `cannot read folder: ${(error as NodeJS.ErrnoException).code ?? 'error'}`,
      );
    }
    for (const entry of entries) {
      const name = entry.name;
      if (isVcsMetadata(name)) continue;
      const full = join(current, name);
      const hidden = name.startsWith('.') || name === 'node_modules';
      try {
        await visit(full, currentReal, name, hidden, false, typed(entry) ? entry : undefined);
      } catch (error) {
        skip(
          full,
          'error',
          'read-failed',
          `cannot read: ${(error as NodeJS.ErrnoException).code ?? 'error'}`,
        );
      }
      if (files.length > MAX_FILES) return;
    }
  }
  await walk(dir, rootReal);
  for (let next = links.shift(); next; next = links.shift()) {
    try {
      await visit(next.full, '', next.name, next.hidden, true);
    } catch (error) {
      skip(
        next.full,
        'error',
        'read-failed',
        `cannot read: ${(error as NodeJS.ErrnoException).code ?? 'error'}`,
      );
    }
    if (files.length > MAX_FILES) break;
  }
  return { files: files.sort(byName), skipped, others };
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
