import { anyListKinds } from '../kinds/registry.js';
import { formatPath, type ConfigIssue } from './issues.js';
import { locate, type YamlFile } from './yaml-file.js';

/** Only variables of this namespace are expanded: the environment's other values never reach a config. */
export const VARIABLE_PREFIX = 'DOCSYNC_VAR_';

/** `${NAME}`, or `$${…}` for a literal `${…}`. */
const REFERENCE = /\$(\$?)\{([^}]*)\}/g;
const NAME = /^DOCSYNC_VAR_[A-Z0-9_]+$/;

/** The keys whose values say where a secret comes from (a kind's `indirect` key): no variables there. */
const SECRET_KEYS = new Set(
  anyListKinds.flatMap((kind) =>
    kind.indirect && kind.indirect.secret !== false ? [kind.indirect.key] : [],
  ),
);

type Path = (string | number)[];

/**
 * Expand `${DOCSYNC_VAR_*}` in the string values of a parsed file (never in keys, never in where a
 * secret comes from). Returns the expanded value and located issues: a variable that is not set, a
 * name outside the namespace, a variable in a key or a secret's source. `$${x}` writes `${x}`.
 * The value is copied only along the paths that change (the loader skips files whose bytes hold no `${`).
 */
export function expandVariables(
  yaml: YamlFile,
  env: NodeJS.ProcessEnv,
): { value: unknown; issues: ConfigIssue[] } {
  const issues: ConfigIssue[] = [];
  const report = (path: Path, message: string, key = false) =>
    issues.push({
      severity: 'error',
      code: 'invalid-variable',
      file: yaml.file,
      ...locate(yaml, path, key),
      path: formatPath(path),
      message,
    });
  const expandString = (text: string, path: Path, secret: boolean): string => {
    if (!text.includes('${')) return text;
    return text.replace(REFERENCE, (whole, escaped: string, name: string) => {
      if (escaped) return whole.slice(1);
      if (secret) {
        report(
          path,
          `variables are not expanded where a secret comes from (\${${name}}): name a file: or env: source`,
        );
        return whole;
      }
      if (!NAME.test(name)) {
        report(
          path,
          `\${${name}} is not a docsync variable: only \${${VARIABLE_PREFIX}*} names are expanded (write $\${…} for a literal \${…})`,
        );
        return whole;
      }
      const value = env[name];
      if (value === undefined) {
        report(path, `variable ${name} is not set`);
        return whole;
      }
      return value;
    });
  };
  const walk = (value: unknown, path: Path, secret: boolean): unknown => {
    if (typeof value === 'string') return expandString(value, path, secret);
    if (Array.isArray(value)) {
      let copy: unknown[] | undefined;
      value.forEach((item, i) => {
        const next = walk(item, [...path, i], secret);
        if (next !== item) (copy ??= [...value])[i] = next;
      });
      return copy ?? value;
    }
    if (value === null || typeof value !== 'object') return value;
    let copy: Record<string, unknown> | undefined;
    for (const [key, child] of Object.entries(value)) {
      if (/\$\{/.test(key)) report([...path, key], `variables are not expanded in keys ("${key}")`, true);
      const next = walk(child, [...path, key], secret || SECRET_KEYS.has(key));
      if (next !== child) (copy ??= { ...value })[key] = next;
    }
    return copy ?? value;
  };
  const value = walk(yaml.value, [], false);
  return { value, issues };
}
