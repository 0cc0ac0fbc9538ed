import type { z } from 'zod';
import { formatPath, type ConfigIssue } from './issues.js';
import { locate, type YamlFile } from './yaml-file.js';
import { didYouMean } from '../model/did-you-mean.js';

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  options?: z.ZodType[];
  valueType?: z.ZodType;
};

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The keys an object at `path` may have, found by walking the schema. */
export function allowedKeys(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  const candidates = walk(schema, path);
  return [...new Set(candidates.flatMap((s) => Object.keys(defOf(s).shape ?? {})))];
}

function unwrap(schema: z.ZodType): z.ZodType[] {
  const def = defOf(schema);
  if (def.type === 'optional' || def.type === 'nullable' || def.type === 'default')
    return unwrap(def.innerType!);
  if (def.type === 'union') return def.options!.flatMap(unwrap);
  return [schema];
}

function walk(schema: z.ZodType, path: readonly PropertyKey[]): z.ZodType[] {
  let current = unwrap(schema);
  for (const part of path) {
    const next: z.ZodType[] = [];
    for (const s of current) {
      const def = defOf(s);
      if (def.type === 'object' && typeof part === 'string' && def.shape?.[part])
        next.push(...unwrap(def.shape[part]));
      else if (def.type === 'array' && typeof part === 'number') next.push(...unwrap(def.element!));
      else if (def.type === 'record' && typeof part === 'string') next.push(...unwrap(def.valueType!));
    }
    current = next;
  }
  return current.filter((s) => defOf(s).type === 'object');
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return `a ${typeof value}`;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = root;
  for (const p of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[p];
  }
  return v;
}

type Issue = z.ZodError['issues'][number];

/**
 * A failed union reports one list of issues per option. When one option is clearly meant (its
 * issues sit deepest, i.e. the value matched its shape), report that option's issues instead.
 */
function flattenUnions(issues: Issue[]): Issue[] {
  return issues.flatMap((issue) => {
    if (issue.code !== 'invalid_union' || !('errors' in issue) || !Array.isArray(issue.errors))
      return [issue];
    const options = (issue.errors as Issue[][]).filter((list) => list.length > 0);
    const depth = (list: Issue[]) => Math.max(...list.map((i) => i.path.length));
    const best = options.sort((a, b) => depth(b) - depth(a))[0];
    if (!best || depth(best) === 0) return [issue];
    return flattenUnions(best.map((i) => ({ ...i, path: [...issue.path, ...i.path] }) as Issue));
  });
}

/** Turn zod's issues into located config issues with plain messages. */
export function zodToIssues(schema: z.ZodType, yaml: YamlFile, error: z.ZodError): ConfigIssue[] {
  const out: ConfigIssue[] = [];
  for (const issue of flattenUnions(error.issues)) {
    const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
    const base = { severity: 'error' as const, file: yaml.file };
    if (issue.code === 'unrecognized_keys') {
      const allowed = allowedKeys(schema, path);
      for (const key of issue.keys) {
        const pos = locate(yaml, [...path, key], true);
        const hint = didYouMean(key, allowed);
        out.push({
          ...base,
          code: 'unknown-key',
          ...pos,
          path: formatPath([...path, key]),
          message: `unknown key "${key}"${hint ? `; did you mean "${hint}"?` : ''} (allowed: ${allowed.join(', ')})`,
        });
      }
      continue;
    }
    const pos = locate(yaml, path);
    const value = valueAt(yaml.value, path);
    let code: ConfigIssue['code'] = 'invalid-value';
    let message = issue.message;
    switch (issue.code) {
      case 'invalid_type':
        if (value === undefined) {
          code = 'required';
          message = `"${String(path.at(-1) ?? '')}" is required`;
        } else {
          code = 'invalid-type';
          message = `expected ${issue.expected}, got ${typeName(value)}`;
        }
        break;
      case 'too_big':
        code = issue.origin === 'array' ? 'too-many' : 'too-long';
        message =
          issue.origin === 'array'
            ? `must have at most ${String(issue.maximum)} items`
            : issue.origin === 'string'
              ? `must be at most ${String(issue.maximum)} characters`
              : `must be at most ${String(issue.maximum)}`;
        break;
      case 'too_small':
        code = issue.origin === 'array' ? 'too-few' : 'too-short';
        message =
          issue.origin === 'array'
            ? `must have at least ${String(issue.minimum)} item(s)`
            : issue.origin === 'string'
              ? `must be at least ${String(issue.minimum)} character(s)`
              : `must be at least ${String(issue.minimum)}`;
        break;
      case 'invalid_format':
        code = 'pattern';
        message = issue.message.startsWith('Invalid')
          ? `does not match the pattern ${String((issue as { pattern?: string }).pattern ?? '')}`
          : issue.message;
        break;
      case 'invalid_value':
        code = 'invalid-value';
        message = `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
        break;
      case 'invalid_union':
        code = 'invalid-type';
        message = `${typeName(value)} is not allowed here`;
        break;
      default:
        break;
    }
    out.push({ ...base, code, ...pos, path: formatPath(path), message });
  }
  return out;
}
