import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import addFormats from 'ajv-formats';

/**
 * A validator built only from GitBook's official OpenAPI document (npm `@gitbook/api`,
 * `spec/openapi.json`): it finds the operation of a request and checks the request and the answer
 * against the document's schemas. Paths are given with or without the `/v1` prefix of the servers.
 */
const require = createRequire(import.meta.url);

export type OpenApiDocument = {
  info: { version: string };
  paths: Record<string, Record<string, any>>;
  components: {
    schemas: Record<string, any>;
    parameters?: Record<string, any>;
    responses?: Record<string, any>;
  };
};

const documentPath = require.resolve('@gitbook/api/spec/openapi.json');
const documentText = readFileSync(documentPath, 'utf8');
export const officialDocument = JSON.parse(documentText) as OpenApiDocument;

/** The version of the `@gitbook/api` package the document comes from. */
export const officialVersion = (
  JSON.parse(readFileSync(new URL('../package.json', pathToFileURL(documentPath)), 'utf8')) as {
    version: string;
  }
).version;

// `optimize: false`: ajv's passes that trim the generated code (unused names, constant folding)
// were about a third of compiling the document's schemas, and the validators are the same.
// `source: true`: the code of each compiled validator is kept, to be written to the cache below.
const ajv = new Ajv2020({
  strict: false,
  allErrors: true,
  validateFormats: true,
  code: { optimize: false, source: true },
});
addFormats.default(ajv);
// Formats of the document that name GitBook's own vocabularies: any string.
ajv.addFormat('icon', true);
ajv.addFormat('emoji', true);
/** The document in ajv, added on the first validator compiled here (its traversal costs). */
let documentAdded = false;
function compileHere(ref: string): ValidateFunction {
  if (!documentAdded) {
    ajv.addSchema({ ...officialDocument, $id: 'openapi' });
    documentAdded = true;
  }
  const v = ajv.getSchema(`openapi#/${ref}`);
  if (!v) throw new Error(`no schema at ${ref}`);
  return v;
}

/**
 * Every schema of the document a check can ask for (JSON pointers, as `validatorAt` takes them):
 * request bodies, JSON answers (the operations' and the shared responses'), the generic `Error`
 * and the query parameters' referenced schemas.
 */
function documentRefs(): string[] {
  const refs = new Set([errorRef]);
  for (const [template, item] of Object.entries(officialDocument.paths))
    for (const [method, op] of Object.entries(item)) {
      if (method === 'parameters') continue;
      if (op.requestBody?.content?.['application/json']?.schema)
        refs.add(pointer('paths', template, method, 'requestBody', 'content', 'application/json', 'schema'));
      for (const [key, response] of Object.entries<any>(op.responses ?? {}))
        if (!response.$ref && response.content?.['application/json'])
          refs.add(
            pointer('paths', template, method, 'responses', key, 'content', 'application/json', 'schema'),
          );
      for (const p of parametersOf(template, op))
        if (typeof p?.schema?.$ref === 'string') refs.add(p.schema.$ref.replace(/^#\//, ''));
    }
  for (const [name, response] of Object.entries<any>(officialDocument.components.responses ?? {}))
    if (response.content?.['application/json'])
      refs.add(pointer('components', 'responses', name, 'content', 'application/json', 'schema'));
  return [...refs];
}

/**
 * The validators of every schema above, kept on disk as one module of ajv's standalone code (the
 * generated functions, each once). Compiling the document's schemas took a worker about a second
 * and a half of CPU for the few files it ran, in every worker and every run; loading the module
 * takes about 0.4 s. The first worker to need a validator without the module compiles them all
 * (about 3 s, once) and writes it; others meanwhile compile what they need. Keyed by the document,
 * ajv's and ajv-formats' versions and this file (its options): any change compiles afresh.
 * `rm -rf .test-dist` starts afresh too.
 */
const cacheFile = join(
  fileURLToPath(new URL('../../.test-dist/openapi-validators/', import.meta.url)),
  `${createHash('sha256')
    .update(documentText)
    .update(readFileSync(require.resolve('ajv/package.json')))
    .update(readFileSync(require.resolve('ajv-formats/package.json')))
    .update(readFileSync(fileURLToPath(import.meta.url)))
    .digest('hex')
    .slice(0, 16)}.cjs`,
);
/** The module's validators by pointer; undefined: not looked for yet; empty: none (compile here). */
let stored: Map<string, ValidateFunction> | undefined;

function storedValidators(): Map<string, ValidateFunction> {
  if (stored) return stored;
  stored = new Map();
  if (existsSync(cacheFile)) {
    const m = require(cacheFile) as { refs: string[] } & Record<string, ValidateFunction>;
    m.refs.forEach((ref, i) => stored!.set(ref, m[`v${i}`]!));
  } else writeStore();
  return stored;
}

/** Compile every validator and write the module, unless another worker is writing it. */
function writeStore(): void {
  const lock = `${cacheFile}.lock`;
  mkdirSync(dirname(cacheFile), { recursive: true });
  try {
    // A lock left by a worker that died while writing is taken over after two minutes.
    if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 120_000) rmSync(lock, { force: true });
    closeSync(openSync(lock, 'wx'));
  } catch {
    return;
  }
  try {
    // A schema ajv cannot compile stays out: a check that asks for it fails as it did before.
    const refs = documentRefs().filter((ref) => {
      try {
        return compileHere(ref) !== undefined;
      } catch {
        return false;
      }
    });
    const code = standaloneCode.default(
      ajv,
      Object.fromEntries(refs.map((ref, i) => [`v${i}`, `openapi#/${ref}`])),
    );
    // Written whole then renamed: a worker reading it at the same time sees all of it or nothing.
    const staging = `${cacheFile}.${process.pid}`;
    writeFileSync(staging, `${code}\nexports.refs = ${JSON.stringify(refs)};\n`);
    renameSync(staging, cacheFile);
  } finally {
    rmSync(lock, { force: true });
  }
}

function compileAt(ref: string): ValidateFunction {
  return storedValidators().get(ref) ?? compileHere(ref);
}

type Method = 'get' | 'put' | 'post' | 'patch' | 'delete';

const routes = Object.keys(officialDocument.paths)
  .map((template) => ({
    template,
    regex: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '([^/]+)')}$`),
    names: [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!),
    // Literal segments first: `/versions/latest` before `/versions/{versionId}`.
    literal: template.split('/').filter((s) => s && !s.startsWith('{')).length,
  }))
  .sort((a, b) => b.literal - a.literal);

const escape = (p: string) => encodeURIComponent(p.replace(/~/g, '~0').replace(/\//g, '~1'));
const pointer = (...parts: string[]) => parts.map(escape).join('/');

const compiled = new Map<string, ValidateFunction>();
function validatorAt(ref: string): ValidateFunction {
  let v = compiled.get(ref);
  if (!v) {
    v = compileAt(ref);
    compiled.set(ref, v);
  }
  return v;
}

/** The generic error body (`components.schemas.Error`), for statuses an operation does not declare. */
const errorRef = pointer('components', 'schemas', 'Error');

export type Operation = {
  template: string;
  method: Method;
  op: any;
  params: Record<string, string>;
};

export function findOperation(method: string, path: string): Operation | null {
  const local = path.replace(/^\/v1(?=\/|$)/, '').split('?')[0]!;
  const m = method.toLowerCase() as Operation['method'];
  const route = routes.find((r) => r.regex.test(local) && officialDocument.paths[r.template]![m]);
  if (!route) return null;
  const values = route.regex.exec(local)!.slice(1).map(decodeURIComponent);
  const params: Record<string, string> = {};
  route.names.forEach((n, i) => (params[n] = values[i]!));
  return { template: route.template, method: m, op: officialDocument.paths[route.template]![m], params };
}

/** An operation's parameters: its path's and its own, references resolved. */
function parametersOf(template: string, op: any): any[] {
  return [...(officialDocument.paths[template]!['parameters'] ?? []), ...(op.parameters ?? [])].map(
    (p: any) => (p.$ref ? officialDocument.components.parameters![p.$ref.split('/').pop()] : p),
  );
}

/** A query parameter's value as its schema types it (query strings carry only text). */
function typedQueryValue(schema: any, value: string): unknown {
  const type = schema?.type;
  if ((type === 'number' || type === 'integer') && value.trim() !== '' && Number.isFinite(Number(value)))
    return Number(value);
  if (type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

/**
 * Problems of a request (method, path with path parameters and an optional `?query`, optional
 * JSON body); empty when valid. Every query parameter must be one the operation declares, with a
 * value its schema accepts.
 */
export function checkRequest(method: string, path: string, body: unknown): string[] {
  const o = findOperation(method, path);
  if (!o) return [`${method} ${path}: no such operation in the official document`];
  const problems: string[] = [];
  if (o.op.deprecated) problems.push(`${method} ${o.template} is deprecated`);
  const params = parametersOf(o.template, o.op);
  for (const [name, value] of Object.entries(o.params)) {
    const param = params.find((p: any) => p.name === name && p.in === 'path');
    const pattern = param?.schema?.pattern;
    if (pattern && !new RegExp(pattern).test(value))
      problems.push(`${name}=${value} does not match ${pattern}`);
  }
  const search = path.includes('?') ? path.slice(path.indexOf('?') + 1) : '';
  for (const [name, value] of new URLSearchParams(search)) {
    const param = params.find((p: any) => p.name === name && p.in === 'query');
    if (!param) {
      problems.push(`${method} ${o.template}: the operation has no query parameter "${name}"`);
      continue;
    }
    if (!param.schema) continue;
    // A parameter's schema may be a reference into the document (a redirect's `source`).
    const ref: unknown = param.schema.$ref;
    const validate =
      typeof ref === 'string' ? validatorAt(ref.replace(/^#\//, '')) : ajv.compile(param.schema);
    if (!validate(typedQueryValue(param.schema, value)))
      problems.push(`${method} ${o.template}: ${name}=${value}: ${ajv.errorsText(validate.errors)}`);
  }
  const schemaAt = o.op.requestBody?.content?.['application/json']?.schema;
  if (body !== undefined) {
    if (!schemaAt) problems.push(`${method} ${o.template} takes no JSON body`);
    else {
      const validate = validatorAt(
        pointer('paths', o.template, o.method, 'requestBody', 'content', 'application/json', 'schema'),
      );
      if (!validate(body))
        problems.push(
          `${method} ${o.template}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(body)}`,
        );
    }
  } else if (o.op.requestBody?.required) problems.push(`${method} ${o.template} requires a body`);
  return problems;
}

/** Where the response schema of `status` lives (a JSON pointer into the document), or null for no body. */
export function responseSchemaRef(o: Operation, status: number): string | null | undefined {
  const responses = o.op.responses ?? {};
  const key = String(status) in responses ? String(status) : 'default' in responses ? 'default' : undefined;
  if (key === undefined) return status >= 400 ? errorRef : undefined;
  const response = responses[key];
  if (response.$ref) {
    const name = String(response.$ref).split('/').pop()!;
    const content = officialDocument.components.responses?.[name]?.content?.['application/json'];
    return content ? pointer('components', 'responses', name, 'content', 'application/json', 'schema') : null;
  }
  return response.content?.['application/json']
    ? pointer('paths', o.template, o.method, 'responses', key, 'content', 'application/json', 'schema')
    : null;
}

/**
 * Problems of an answer: its status must be declared by the operation (an error status may instead
 * fall under `default`, or, where the operation declares no errors at all, the document's generic
 * `Error` body), and its body must validate against the declared schema.
 */
export function checkResponse(method: string, path: string, status: number, body: unknown): string[] {
  const o = findOperation(method, path);
  if (!o) return [`${method} ${path}: no such operation in the official document`];
  const ref = responseSchemaRef(o, status);
  const where = `${method} ${o.template} → ${status}`;
  if (ref === undefined) return [`${where}: status not declared by the operation`];
  if (ref === null)
    return body === undefined ? [] : [`${where}: the document declares no body, got ${JSON.stringify(body)}`];
  if (body === undefined) return [`${where}: the document declares a body, got none`];
  const validate = validatorAt(ref);
  if (validate(body)) return [];
  return [`${where}: ${ajv.errorsText(validate.errors, { separator: '; ' })}`];
}
