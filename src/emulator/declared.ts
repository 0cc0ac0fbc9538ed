import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { capabilitiesOf } from '../api/capabilities.js';
import type { AnyEmulated, EmulatedContext } from '../kinds/emulated.js';
import { absentHere, kindModules } from '../kinds/registry.js';
import type { ApiFlavor } from '../model/kinds.js';
import { badRequest, notFound } from './errors.js';
import { paginate } from './paginate.js';
import type { RouteDeps } from './routes/context.js';
import type { RouteContext } from './router.js';
import { APP_URL, PUBLISHED_URL } from './shapes.js';
import { findOrg, findSite, newId, now } from './store.js';

/**
 * The kinds that declare an emulator part (src/kinds/emulated.ts), served with no route file of
 * their own: a list per organization or per site in the state, GET and POST on the list, GET,
 * PATCH/PUT and DELETE on an item as declared, pagination, request bodies checked by the kind's
 * schemas (a 400 naming the field), 404 for an unknown id, and only in the flavors whose
 * capabilities have the kind.
 */
export const declaredKinds: readonly {
  kind: string;
  key: string;
  emulator: AnyEmulated;
  absentIn?: readonly ApiFlavor[];
}[] = kindModules.flatMap((k) =>
  k.emulator
    ? [
        {
          kind: k.kind,
          key: (k as { key?: string }).key ?? k.emulator.store,
          emulator: k.emulator,
          absentIn: k.absentIn,
        },
      ]
    : [],
);

type Item = { id: string };
type Holder = Record<string, unknown>;

/** `/orgs/{org}/sites/{site}/share-links/{link}` → `/orgs/:orgId/sites/:siteId/share-links/:link`. */
export function routerTemplate(route: string): string {
  return route.replace(/\{(\w+)\}/g, (_, name: string) =>
    name === 'org' ? ':orgId' : name === 'site' ? ':siteId' : `:${name}`,
  );
}

/** The item route's last parameter: the item's id. */
function itemParam(route: string): string {
  const names = [...route.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  return names.at(-1)!;
}

/** A request body checked by a kind's schema: each problem is a 400 naming the field, as validate.ts does. */
export function parseBody<T>(schema: z.ZodType<T>, body: unknown, required = true): T {
  if (body === undefined || body === null) {
    if (required) throw badRequest('request body is required');
    body = {};
  }
  if (typeof body !== 'object' || Array.isArray(body)) throw badRequest('request body must be a JSON object');
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.length > 0 ? issue.path.join('.') : 'body';
  throw badRequest(`${field}: ${issue.message}`);
}

/** The list items live in: created empty by the first write, never by a read. */
function listOf(holder: Holder, store: string, write: boolean): Item[] {
  const list = holder[store];
  if (Array.isArray(list)) return list as Item[];
  const fresh: Item[] = [];
  if (write) holder[store] = fresh;
  return fresh;
}

/** Register the routes of every declared kind the flavor has. */
export function registerDeclared(deps: RouteDeps): void {
  const caps = capabilitiesOf(deps.flavor);
  for (const kind of declaredKinds) if (!absentHere(kind, caps)) serveDeclared(deps, kind.emulator);
}

/** Serve one declared kind (exported for its test). */
export function serveDeclared(deps: RouteDeps, e: AnyEmulated): void {
  const { router, flavor } = deps;
  const param = itemParam(e.routes.item);
  const list = routerTemplate(e.routes.list);
  const item = routerTemplate(e.routes.item);

  const where = (params: Record<string, string>, write = false) => {
    const org = findOrg(deps.state(), params['orgId']!);
    const site = e.in === 'sites' ? findSite(org, params['siteId']!, deps.memo) : undefined;
    const holder = (site ?? org) as unknown as Holder;
    const ctx: EmulatedContext = {
      flavor,
      now,
      id: () => newId(e.idPrefix),
      secret: () => randomBytes(12).toString('hex'),
      org: org.id,
      ...(site ? { site: site.id } : {}),
      urls: { api: `${deps.baseUrl()}/v1`, app: APP_URL, docs: PUBLISHED_URL },
    };
    return { items: listOf(holder, e.store, write), ctx, holder };
  };
  /** A reference of the body to what the holder lacks: a 404 naming it. */
  const checkRefs = (body: unknown, holder: Holder) => {
    const missing = e.hooks?.missing?.(body, holder);
    if (missing) throw notFound(missing);
  };
  const find = (items: Item[], id: string) => {
    const found = items.find((x) => x.id === id);
    if (!found) throw notFound(`${e.noun} ${id} not found`);
    return found;
  };
  const ordered = (items: Item[]) => (e.hooks?.order ? e.hooks.order(items) : items);

  if (e.listed !== false)
    router.on('GET', list, ({ params, query }: RouteContext) => {
      const { items, ctx } = where(params);
      return { status: 200, body: paginate(ordered(items), query, (x) => e.answer(x, ctx)) };
    });
  router.on('POST', list, ({ params, body }: RouteContext) => {
    const { ctx, holder } = where(params);
    const parsed = parseBody(e.create.body, body);
    checkRefs(parsed, holder);
    const made = e.create.item(parsed, ctx);
    where(params, true).items.push(made);
    return { status: 201, body: e.answer(made, ctx) };
  });
  const bulk = e.bulk;
  if (bulk)
    router.on(bulk.method, list, ({ params, body }: RouteContext) => {
      const { ctx } = where(params);
      const parsed = parseBody(bulk.body, body);
      return { status: 200, body: bulk.apply(where(params, true).items, parsed as never, ctx) };
    });
  if (e.get)
    router.on('GET', item, ({ params }: RouteContext) => {
      const { items, ctx } = where(params);
      return { status: 200, body: e.answer(find(items, params[param]!), ctx) };
    });
  const update = e.update;
  if (update)
    router.on(update.method, item, ({ params, body }: RouteContext) => {
      const { items, ctx, holder } = where(params);
      const found = find(items, params[param]!);
      const parsed = parseBody(update.body, body, false);
      checkRefs(parsed, holder);
      update.apply(found, parsed, ctx);
      return { status: 200, body: e.answer(found, ctx) };
    });
  const del = e.delete;
  if (del)
    router.on('DELETE', item, ({ params }: RouteContext) => {
      const { items } = where(params);
      // An unknown id is a 404 here; the server answers it 204 in today's flavor ("did not exist").
      items.splice(items.indexOf(find(items, params[param]!)), 1);
      return { status: typeof del.status === 'number' ? del.status : del.status[flavor] };
    });
}

/**
 * The seed's entries of every declared kind held by one organization or site (under the kind's
 * config key, as a config would list them: `inviteLinks`, `shareLinks`), as items: ids from the seed's counter where an entry has none, so the same seed gives the same state.
 */
export function seedDeclared(
  holder: 'organizations' | 'sites',
  raw: Record<string, unknown>,
  where: { org: string; site?: string },
  newSeedId: (prefix: string) => string,
  created: string,
): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const { key, emulator: e } of declaredKinds) {
    if (e.in !== holder || !e.seed) continue;
    const entries = raw[key];
    if (entries === undefined) continue;
    if (!Array.isArray(entries)) throw new Error(`seed ${key}: must be a list`);
    const seed = e.seed;
    const ctx: EmulatedContext = {
      flavor: 'seed',
      now: () => created,
      id: () => newSeedId(e.idPrefix),
      secret: () => randomBytes(12).toString('hex'),
      ...where,
      urls: { api: '', app: APP_URL, docs: PUBLISHED_URL },
    };
    const parsed = entries.map((x, i) => {
      const result = seed.entry.safeParse(x);
      if (!result.success) {
        const issue = result.error.issues[0]!;
        throw new Error(`seed ${key}[${i}].${issue.path.join('.')}: ${issue.message}`);
      }
      return result.data;
    });
    out[e.store] = parsed.map((x) => seed.item(x, ctx));
  }
  return out;
}
