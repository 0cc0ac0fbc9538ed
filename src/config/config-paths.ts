import { isAbsolute, normalize, relative, sep } from 'node:path';

/**
 * `join(parent, name)` for an entry of a folder listing (`name` holds no separator and is never
 * `.` or `..`) under a normalized `parent`: what `join` answers, without its normalizing scan of
 * every path. A config of 665 files ran `join` hot enough for V8 to compile it (issue 33).
 */
export function childPath(parent: string, name: string): string {
  if (parent === '' || parent === '.' || parent === `.${sep}`) return name;
  return parent.endsWith(sep) ? parent + name : parent + sep + name;
}

const esc = sep === '\\' ? '\\\\' : '/';
/** An empty, `.` or `..` segment, or a leading separator: a path no walk below a folder writes. */
const NOT_PLAIN = new RegExp(`^${esc}|${esc}${esc}|(?:^|${esc})\\.{1,2}(?:${esc}|$)`);

/**
 * How the loader shows the paths of config folder `dir`'s files: relative to `cwd`
 * (`relative(cwd, file) || file`). When `dir` is `cwd` or below it, a path its walk made
 * (`childPath` under `dir` normalized) is the folder's shown path and the rest, without
 * `relative`'s two `resolve`s per file; any other path is given to `relative` (issue 33).
 */
export function shownPaths(dir: string, cwd: string): (file: string) => string {
  const root = normalize(dir);
  const prefix = root === '.' || root === `.${sep}` ? '' : root.endsWith(sep) ? root : root + sep;
  const shownRoot = relative(cwd, dir);
  const below = shownRoot === '' || (!shownRoot.startsWith('..') && !isAbsolute(shownRoot));
  return (file) => {
    if (below && file.length > prefix.length && file.startsWith(prefix)) {
      const rest = file.slice(prefix.length);
      if (!NOT_PLAIN.test(rest)) return shownRoot === '' ? rest : shownRoot + sep + rest;
    }
    return relative(cwd, file) || file;
  };
}
