import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkResponse, findOperation, officialDocument, responseSchemaRef } from './openapi.js';

/**
 * A fake GitBook API built only from the official OpenAPI document: every operation of the
 * document answers its declared success status with data generated from its response schema.
 * No knowledge of docsync or of api.md: a change of the official shapes in a new `@gitbook/api`
 * changes what this fake answers. The generated data is deliberately awkward: unknown extra fields
 * on every open object, `null` for optional nullable fields, a second page that is empty, and
 * deletes that answer 204 or 205 in turn. Every answer is checked against the document before it
 * is sent (a generated value the document refuses is generated again).
 */
type Schema = Record<string, any>;

function resolve(schema: Schema): Schema {
  let s = schema;
  for (let i = 0; s && typeof s.$ref === 'string' && i < 20; i += 1) {
    const path = String(s.$ref).replace(/^#\//, '').split('/');
    const { $ref: _ref, ...rest } = s;
    let target: any = officialDocument;
    for (const p of path) target = target?.[decodeURIComponent(p).replace(/~1/g, '/').replace(/~0/g, '~')];
    s = { ...target, ...rest };
  }
  return s;
}

/** A small seeded generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const isNullSchema = (s: Schema) =>
  s && (s.type === 'null' || (Array.isArray(s.enum) && s.enum.length === 1 && s.enum[0] === null));

export class Generator {
  private n = 0;
  constructor(private readonly rand: () => number) {}

  private pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.rand() * list.length)]!;
  }

  /** A value for `schema`; `name` is the property it is for (makes strings readable and unique). */
  value(raw: Schema, name: string, depth: number): unknown {
    const schema = resolve(raw);
    if (!schema || typeof schema !== 'object' || Object.keys(schema).length === 0)
      return `${name}-${++this.n}`;
    if ('const' in schema) return schema.const;
    if (Array.isArray(schema.enum)) return this.pick(schema.enum);
    const alternatives = schema.oneOf ?? schema.anyOf;
    if (Array.isArray(alternatives)) {
      const options = alternatives.map(resolve);
      const nonNull = options.filter((o: Schema) => !isNullSchema(o));
      const nullable = nonNull.length < options.length;
      if (nullable && this.rand() < 0.3) return null;
      const base = { ...schema };
      delete base.oneOf;
      delete base.anyOf;
      delete base.discriminator;
      const chosen = this.pick(nonNull.length > 0 ? nonNull : options);
      return this.value(Object.keys(base).length > 0 ? merge(base, chosen) : chosen, name, depth);
    }
    if (Array.isArray(schema.allOf)) {
      const { allOf, ...rest } = schema;
      return this.value(allOf.map(resolve).reduce(merge, rest), name, depth);
    }
    const type = Array.isArray(schema.type)
      ? this.pick(schema.type.filter((t: string) => t !== 'null'))
      : schema.type;
    if (type === 'object' || (!type && schema.properties)) return this.object(schema, depth);
    if (type === 'array') {
      const min = schema.minItems ?? 0;
      // Lists of a page have one or two items; nested arrays zero to two, none when deep.
      const count = depth > 4 ? min : Math.max(min, Math.floor(this.rand() * 3) + (depth <= 1 ? 1 : 0));
      return Array.from({ length: count }, () => this.value(schema.items ?? {}, name, depth + 1));
    }
    if (type === 'boolean') return this.rand() < 0.5;
    if (type === 'integer' || type === 'number') {
      const min = schema.minimum ?? 0;
      const max = schema.maximum ?? min + 100;
      return min + Math.floor(this.rand() * (max - min + 1));
    }
    if (type === 'null') return null;
    return this.string(schema, name);
  }

  private object(schema: Schema, depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const required: string[] = schema.required ?? [];
    for (const [key, prop] of Object.entries<Schema>(schema.properties ?? {})) {
      const deprecated = resolve(prop).deprecated === true;
      if (!required.includes(key) && (depth > 3 || deprecated || this.rand() < 0.3)) continue;
      out[key] = this.value(prop, key, depth + 1);
    }
    const extra = schema.additionalProperties;
    if (extra !== false && !schema.unevaluatedProperties && !schema.propertyNames) {
      // An unknown field, as a newer API would add.
      out[`unknownField${++this.n}`] =
        extra && typeof extra === 'object' ? this.value(extra, 'extra', depth + 1) : { added: 'later' };
    }
    return out;
  }

  private string(schema: Schema, name: string): string {
    const n = ++this.n;
    const candidates: string[] = [];
    switch (schema.format) {
      case 'uri':
      case 'url':
        candidates.push(`https://example.com/${name}/${n}`);
        break;
      case 'date-time':
        candidates.push(new Date(Date.UTC(2025, 0, 1) + n * 60_000).toISOString());
        break;
      case 'date':
        candidates.push('2025-01-01');
        break;
      case 'email':
        candidates.push(`user${n}@example.com`);
        break;
      case 'uuid':
        candidates.push(`00000000-0000-4000-8000-${String(n).padStart(12, '0')}`);
        break;
      case 'emoji':
        candidates.push('1f4da');
        break;
      case 'icon':
        candidates.push('book');
        break;
      default:
        break;
    }
    const id = `${name.replace(/[^a-zA-Z0-9]/g, '').toLowerCase() || 'x'}${n}`;
    candidates.push(id, `${id}-a`, `example${n}.com/docs`, `https://example.com/${id}`, `a${n}`, `/${id}`);
    // A color (`Color`) and a hostname (`…/hostname`): tried only when nothing before matches the pattern.
    candidates.push('#346DDB', `docs${n}.example.com`);
    const min = schema.minLength ?? 0;
    const max = schema.maxLength ?? Infinity;
    const pattern = schema.pattern ? new RegExp(schema.pattern) : null;
    for (const c of candidates) {
      const padded = c.length < min ? c.padEnd(min, 'x') : c;
      const cut = padded.length > max ? padded.slice(0, max) : padded;
      if (!pattern || pattern.test(cut)) return cut;
    }
    return candidates[0]!;
  }
}

function merge(a: Schema, b: Schema): Schema {
  const out: Schema = { ...a, ...b };
  if (a.properties || b.properties) out.properties = { ...a.properties, ...b.properties };
  if (a.required || b.required) out.required = [...new Set([...(a.required ?? []), ...(b.required ?? [])])];
  return out;
}

/** A request the fake received; `query` is the `?…` part of its URL (empty without one). */
export type FakeRequest = { method: string; path: string; query: string; status: number; body?: unknown };

export type OfficialFake = {
  url: string;
  requests: FakeRequest[];
  problems: string[];
  close: () => Promise<void>;
};

/** Start the fake on 127.0.0.1, port 0. */
export async function startOfficialFake(seed = 17): Promise<OfficialFake> {
  const rand = random(seed);
  const gen = new Generator(rand);
  const requests: FakeRequest[] = [];
  const problems: string[] = [];
  let deletes = 0;

  const answer = (
    method: string,
    path: string,
    query: URLSearchParams,
  ): { status: number; body?: unknown } => {
    const o = findOperation(method, path);
    if (!o) return { status: 404, body: { error: { code: 404, message: `no operation ${method} ${path}` } } };
    const declared = Object.keys(o.op.responses ?? {})
      .filter((k) => /^2\d\d$/.test(k))
      .map(Number)
      .sort();
    let status = declared[0] ?? 200;
    if (method === 'DELETE')
      status = declared.includes(204) && deletes++ % 2 === 0 ? 204 : declared.includes(205) ? 205 : status;
    const ref = responseSchemaRef(o, status);
    if (!ref) return { status };
    const schema = { $ref: `#/${ref}` };
    let last: string[] = [];
    for (let attempt = 0; attempt < 25; attempt += 1) {
      const body = gen.value(schema, 'root', 0) as any;
      if (body && typeof body === 'object' && Array.isArray(body.items)) {
        // Pages: the first answer points to a second one, which is empty and the last.
        if (query.get('page')) {
          body.items = [];
          delete body.next;
        } else body.next = { page: 'second' };
      }
      last = checkResponse(method, path, status, body);
      if (last.length === 0) return { status, body };
    }
    problems.push(
      `${method} ${o.template}: no valid answer could be generated: ${last.join('; ').slice(0, 500)}`,
    );
    return { status: 500, body: { error: { code: 500, message: 'fake could not generate an answer' } } };
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake.local');
      const raw = Buffer.concat(chunks).toString('utf8');
      const { status, body } = answer(req.method ?? 'GET', url.pathname, url.searchParams);
      requests.push({
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.search,
        status,
        ...(raw ? { body: JSON.parse(raw) as unknown } : {}),
      });
      if (body === undefined) {
        res.writeHead(status);
        res.end();
        return;
      }
      const text = JSON.stringify(body);
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(text);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    problems,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
