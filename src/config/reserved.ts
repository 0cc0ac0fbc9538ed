import { isReservedKey } from '../model/dict.js';
import { formatPath, type ConfigIssue } from './issues.js';
import { locate, type YamlFile } from './yaml-file.js';

/**
 * Keys of list entries whose values name the entry (identities, titles) and end up as lookup keys
 * (teams by title, fields by name, members by user…): a reserved name there is refused too.
 */
const NAMING_KEYS = new Set(['name', 'title', 'label', 'slug', 'user', 'path']);

/**
 * `__proto__`, `constructor` and `prototype`, anywhere a key is written (any map, e.g. a space's
 * customFields values) or as the name or title of a list entry: refused at validation, located.
 * They would reach an object's prototype instead of a property (a value that vanishes, a lookup
 * that finds a function); docsync's own maps are safe against them, and config never holds them.
 */
export function reservedNameIssues(yaml: YamlFile): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const report = (path: (string | number)[], key: boolean, message: string) =>
    issues.push({
      severity: 'error',
      code: 'reserved-name',
      file: yaml.file,
      ...locate(yaml, path, key),
      path: formatPath(path),
      message,
    });
  const walk = (value: unknown, path: (string | number)[], inList: boolean): void => {
    if (Array.isArray(value)) {
      value.forEach((item, i) => walk(item, [...path, i], true));
      return;
    }
    if (value === null || typeof value !== 'object') return;
    for (const key of Object.keys(value)) {
      const child = (value as Record<string, unknown>)[key];
      const at = [...path, key];
      if (isReservedKey(key))
        report(at, true, `"${key}" may not be used as a key: it names an object's prototype machinery`);
      else if (inList && NAMING_KEYS.has(key) && typeof child === 'string' && isReservedKey(child))
        report(at, false, `"${child}" may not be used as a ${key}: it names an object's prototype machinery`);
      walk(child, at, false);
    }
  };
  walk(yaml.value, [], false);
  return issues;
}
