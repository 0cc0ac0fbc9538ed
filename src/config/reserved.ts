import { isReservedKey, RESERVED_KEYS } from '../model/dict.js';
import { formatPath, type ConfigIssue } from './issues.js';
import { locate, mayHoldAny, type YamlFile } from './yaml-file.js';

/** A file whose text holds none of them has nothing to refuse (the walk is skipped: issue 33). */
const RESERVED_WORDS = [...RESERVED_KEYS];

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
  if (!mayHoldAny(yaml, RESERVED_WORDS)) return issues;
  const report = (path: (string | number)[], key: boolean, message: string) =>
    issues.push({
      severity: 'error',
      code: 'reserved-name',
      file: yaml.file,
      ...locate(yaml, path, key),
      path: formatPath(path),
      message,
    });
  // One path, pushed and popped as the walk goes; copied only for a report (most files have none).
  const path: (string | number)[] = [];
  const walk = (value: unknown, inList: boolean): void => {
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i += 1) {
        path.push(i);
        walk(value[i], true);
        path.pop();
      }
      return;
    }
    if (value === null || typeof value !== 'object') return;
    // `for…in`, not `Object.keys`: no array of keys per object (parsed YAML has no inherited keys).
    for (const key in value) {
      const child = (value as Record<string, unknown>)[key];
      path.push(key);
      if (isReservedKey(key))
        report(
          [...path],
          true,
          `"${key}" may not be used as a key: it names an object's prototype machinery`,
        );
      else if (inList && NAMING_KEYS.has(key) && typeof child === 'string' && isReservedKey(child))
        report(
          [...path],
          false,
          `"${child}" may not be used as a ${key}: it names an object's prototype machinery`,
        );
      walk(child, false);
      path.pop();
    }
  };
  walk(yaml.value, false);
  return issues;
}
