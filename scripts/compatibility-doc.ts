/**
 * The endpoint tables of docs/compatibility.md, generated (`npm run generate`) from what the kinds
 * declare: every route of their reads (`reads`, `read`, a lookup's `get`, the reads below each item)
 * and of their operations (each op's `call`, asked once per flavor with a placeholder operation, so
 * a call that depends on the capabilities answers as it would), in the flavors where the API has the
 * kind (src/api/capabilities.ts). Beside them: whether GitBook's official OpenAPI document
 * (`@gitbook/api`) has the route, and whether the emulator serves it in each flavor
 * (`startEmulator().routes()`). The prose of the page stays hand-written: only the text between
 * the generated markers is replaced.
 */
import { readFileSync } from 'node:fs';
import { AUDIT_READ } from '../src/live/audit.js';
import { sitePreviewCall } from '../src/kinds/site-parts.js';
import { createRequire } from 'node:module';
import { capabilitiesOf } from '../src/api/capabilities.js';
import { startEmulator } from '../src/emulator/server.js';
import { absentHere, kindModules, readOnlyHere } from '../src/kinds/registry.js';
import type { ApiCall, ApiList, HttpVerb, LiveRead, Resolver } from '../src/kinds/types.js';
import type { ApiFlavor } from '../src/model/kinds.js';

const FLAVORS: readonly ApiFlavor[] = ['seed', 'current'];
/** What a read below each item of a list is for. */
const BELOW = 'read below each ';

/** One way docsync uses a route: in which flavor, what for, and the answers it accepts. */
export type RouteUse = {
  method: HttpVerb;
  /** docsync's template: `/orgs/{org}/teams/{team}`. */
  route: string;
  flavor: ApiFlavor;
  what: string;
  expect: readonly number[];
};

/**
 * Stands for any value of an operation or an answer: every property is itself, calling it gives
 * itself, and it reads as `x` in a string. A call's route depends on the operation's type and the
 * capabilities only, not on the values the operation carries.
 */
const anything: unknown = new Proxy(() => anything, {
  get: (_target, key) => (key === Symbol.toPrimitive ? () => 'x' : key === 'then' ? undefined : anything),
});

const placeholderOp = (type: string): never =>
  new Proxy({ type } as Record<string | symbol, unknown>, {
    get: (target, key) => (key in target ? target[key] : anything),
  }) as never;

const resolver: Resolver = { ref: () => 'x', patch: () => ({}), position: () => ({}) };

type ChildReadLike = {
  absentIn?: readonly ApiFlavor[];
  list?: (org: string, item: never) => ApiList;
  call?: (org: string, item: never) => ApiCall;
  then?: (item: never, wants: undefined) => readonly ChildReadLike[];
};

/** An item whose reads need an earlier one's answer (a site space's overrides): one of each. */
const sampleItem = { id: 'x', spaces: [{ id: 'x', space: 'x' }] } as never;

/** The reads a kind module declares, whatever its shape (list kind, object, facet, space). */
function readsOf(kind: Record<string, unknown>, flavor: ApiFlavor): Omit<RouteUse, 'flavor'>[] {
  const caps = capabilitiesOf(flavor);
  const name = String(kind['kind']);
  const absent = absentHere(kind, caps);
  const readOnlyInFlavor = readOnlyHere(kind, caps);
  const uses: Omit<RouteUse, 'flavor'>[] = [];
  const listed = (route: string, what: string) => uses.push({ method: 'GET', route, what, expect: [200] });
  const called = (call: ApiCall, what: string) =>
    uses.push({ method: call.method, route: call.route, what, expect: call.expect });
  const reads = (kind['reads'] ?? []) as LiveRead<unknown>[];
  for (const read of reads) {
    if (read.readOnly ? !readOnlyInFlavor : absent) continue;
    listed(read.list('x').route, read.readOnly ? `read ${name} (not managed here)` : `read ${name}`);
    const children = (read.children?.reads ?? []) as readonly ChildReadLike[];
    for (const child of [...children, ...children.flatMap((c) => c.then?.(sampleItem, undefined) ?? [])]) {
      if (absentHere(child, caps)) continue;
      if (child.list) listed(child.list('x', anything as never).route, `${BELOW}${name}`);
      if (child.call) called(child.call('x', anything as never), `${BELOW}${name}`);
    }
  }
  if (!absent) {
    const read = kind['read'] as
      | ((...args: string[]) => ApiCall | { lists: ApiList[] })
      | {
          call?: (...args: string[]) => ApiCall;
          list?: (...args: string[]) => ApiList;
          lists?: (...args: string[]) => ApiList[];
        }
      | undefined;
    const each = (lists: ApiList[]) => lists.forEach((l) => listed(l.route, `read ${name}`));
    if (typeof read === 'function') {
      const r = read('x', 'x');
      if ('lists' in r) each(r.lists);
      else called(r, `read ${name}`);
    } else if (read?.call) called(read.call('x', 'x'), `read ${name}`);
    else if (read?.list) listed(read.list('x', 'x').route, `read ${name}`);
    else if (read?.lists) each(read.lists('x', 'x'));
    const lookup = kind['lookup'] as { noun: string; get?: { call: (id: string) => ApiCall } } | undefined;
    if (lookup?.get) called(lookup.get.call('x'), `look up a ${lookup.noun} the config names`);
    // The API client's own call (src/api/client.ts): the user the token belongs to.
    if (kind['needsSelf'] === true)
      uses.push({ method: 'GET', route: '/user', what: `the token's user (${name})`, expect: [200] });
  }
  return uses;
}

/** The calls a kind's operations make in a flavor where the API has (and manages) the kind. */
function opsOf(kind: Record<string, unknown>, flavor: ApiFlavor): Omit<RouteUse, 'flavor'>[] {
  const caps = capabilitiesOf(flavor);
  const name = String(kind['kind']);
  if (absentHere(kind, caps)) return [];
  const ops = kind['ops'] as Record<
    string,
    {
      call: (op: never, r: Resolver, c: typeof caps) => ApiCall;
      needs?: 'invites';
      absentIn?: readonly ApiFlavor[];
    }
  >;
  return Object.entries(ops).flatMap(([type, def]) => {
    if (def.needs && !caps[def.needs]) return [];
    if (def.absentIn?.includes(flavor)) return [];
    let call: ApiCall;
    try {
      call = def.call(placeholderOp(type), resolver, caps);
    } catch (error) {
      throw new Error(
        `${name}: the call of ${type} fails with a placeholder operation (its route must depend only on the operation's type and the capabilities): ${(error as Error).message}`,
      );
    }
    return [{ method: call.method, route: call.route, what: type, expect: call.expect }];
  });
}

/** The preview a pull request comment links (today's API only; src/pipeline/preview.ts). */
function sitePreviewUse(flavor: ApiFlavor): RouteUse[] {
  if (flavor !== 'current') return [];
  const call = sitePreviewCall('x', 'x');
  return [
    { method: call.method, route: call.route, what: 'site preview (comment)', expect: call.expect, flavor },
  ];
}

/** Every route docsync uses, per flavor, from the kind registry (and the audit log's read). */
export function routeUses(): RouteUse[] {
  return FLAVORS.flatMap((flavor) =>
    (kindModules as unknown as Record<string, unknown>[])
      .flatMap((kind) =>
        [...readsOf(kind, flavor), ...opsOf(kind, flavor)].map((use) => ({ ...use, flavor })),
      )
      .concat(
        capabilitiesOf(flavor).auditLog ? [{ ...AUDIT_READ, expect: [...AUDIT_READ.expect], flavor }] : [],
      )
      .concat(sitePreviewUse(flavor)),
  );
}

/** A route's shape: parameters without their names (`/orgs/{}/teams/{}`). */
export const shapeOf = (route: string) => route.replace(/\{[^}]+\}|:\w+/g, '{}');

type Official = { template: string; status: 'yes' | 'deprecated' } | undefined;
type OfficialDocument = { paths: Record<string, Record<string, { deprecated?: boolean }>> };

let parsed: OfficialDocument | undefined;
function officialDocument(): OfficialDocument {
  const file = createRequire(import.meta.url).resolve('@gitbook/api/spec/openapi.json');
  parsed ??= JSON.parse(readFileSync(file, 'utf8')) as OfficialDocument;
  return parsed;
}

/** Finds a route in the official document, by method and shape. */
function officialLookup(document: OfficialDocument): (method: string, route: string) => Official {
  const byShape = new Map<string, string>();
  for (const template of Object.keys(document.paths)) byShape.set(shapeOf(template), template);
  return (method, route) => {
    const template = byShape.get(shapeOf(route));
    const op = template ? document.paths[template]![method.toLowerCase()] : undefined;
    return template && op ? { template, status: op.deprecated ? 'deprecated' : 'yes' } : undefined;
  };
}

const paramsOf = (route: string) => [...route.matchAll(/\{([^}]+)\}|:(\w+)/g)].map((m) => (m[1] ?? m[2])!);

/**
 * Routes as the official document names them: its template where it has the route, else docsync's
 * parameter names translated as the official routes translate them (`{org}` → `{organizationId}`).
 */
function namer(
  official: (method: string, route: string) => Official,
  all: { method: string; route: string }[],
) {
  const names = new Map<string, string>();
  for (const { method, route } of all) {
    const o = official(method, route);
    if (!o) continue;
    const theirs = paramsOf(o.template);
    paramsOf(route).forEach((mine, i) => names.set(mine, theirs[i]!));
  }
  return (method: string, route: string): string =>
    official(method, route)?.template ??
    route.replace(
      /\{([^}]+)\}|:(\w+)/g,
      (_, a?: string, b?: string) => `{${names.get((a ?? b)!) ?? a ?? b}}`,
    );
}

const METHOD_ORDER: readonly string[] = ['GET', 'PUT', 'POST', 'PATCH', 'DELETE'];

/** Where something holds: `both`, one flavor, or `no`. */
const flavorsText = (flavors: Set<ApiFlavor>) =>
  flavors.size === FLAVORS.length ? 'both' : flavors.size === 0 ? 'no' : [...flavors].join(', ');

const orText = (values: readonly number[]) => {
  const sorted = [...new Set(values)].sort();
  return sorted.length === 1 ? `${sorted[0]}` : `${sorted.slice(0, -1).join(', ')} or ${sorted.at(-1)}`;
};

/** What a route is used for: what both flavors share, then what only one does. */
function purposes(uses: RouteUse[], flavors: Set<ApiFlavor>): string {
  const by = (f: ApiFlavor) => {
    const whats = new Set(uses.filter((u) => u.flavor === f).map((u) => u.what));
    // A kind's own read of the route says more than "read below each site".
    if ([...whats].some((w) => w.startsWith('read ') && !w.startsWith(BELOW)))
      for (const w of whats) if (w.startsWith(BELOW)) whats.delete(w);
    return whats;
  };
  const [seed, current] = [by('seed'), by('current')];
  const shared = [...seed].filter((w) => current.has(w));
  const only = (f: ApiFlavor, mine: Set<string>, other: Set<string>) => {
    const own = [...mine].filter((w) => !other.has(w));
    return own.length === 0 ? [] : flavors.size > 1 ? [`${f}: ${own.join(', ')}`] : own;
  };
  return [...shared, ...only('seed', seed, current), ...only('current', current, seed)].join('; ');
}

export type Routes = { method: string; template: string }[];

/** The routes the emulator serves in each flavor. */
export async function emulatorRoutes(): Promise<Record<ApiFlavor, Routes>> {
  const served = {} as Record<ApiFlavor, Routes>;
  for (const flavor of FLAVORS) {
    const emulator = await startEmulator({ port: 0, flavor });
    served[flavor] = emulator.routes();
    await emulator.close();
  }
  return served;
}

/**
 * A Markdown table aligned as Prettier aligns one (the page stays as `npm run format` leaves it):
 * each column as wide as its widest cell, at least three.
 */
function table(head: string[], rows: string[][]): string {
  const all = [head, ...rows].map((cells) => cells.map((c) => c.replace(/\|/g, '\\|')));
  const widths = head.map((_, i) => Math.max(3, ...all.map((cells) => cells[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(all[0]!), line(widths.map((w) => '-'.repeat(w))), ...all.slice(1).map(line)].join('\n');
}

const key = (method: string, route: string) => `${method} ${shapeOf(route)}`;
const order = (a: { method: string; path: string }, b: { method: string; path: string }) =>
  a.path === b.path
    ? METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method)
    : a.path < b.path
      ? -1
      : 1;

/** The two generated tables: the endpoints docsync calls, and the emulator's others. */
export function renderEndpointTables(
  uses: RouteUse[],
  served: Record<ApiFlavor, Routes>,
  document: OfficialDocument = officialDocument(),
): { calls: string; emulatorOnly: string } {
  const official = officialLookup(document);
  const emulated = (flavor: ApiFlavor) => new Set(served[flavor].map((r) => key(r.method, r.template)));
  const servedIn = Object.fromEntries(FLAVORS.map((f) => [f, emulated(f)])) as Record<ApiFlavor, Set<string>>;
  const name = namer(official, [
    ...uses,
    ...FLAVORS.flatMap((f) => served[f].map((r) => ({ method: r.method, route: r.template }))),
  ]);
  const groups = new Map<string, RouteUse[]>();
  for (const use of uses)
    groups.set(key(use.method, use.route), [...(groups.get(key(use.method, use.route)) ?? []), use]);
  const where = (k: string) => new Set(FLAVORS.filter((f) => servedIn[f].has(k)));
  const calls = [...groups.entries()]
    .map(([k, mine]) => {
      const { method, route } = mine[0]!;
      const flavors = new Set(FLAVORS.filter((f) => mine.some((u) => u.flavor === f)));
      return {
        method,
        path: name(method, route),
        cells: [
          official(method, route)?.status ?? 'no',
          flavorsText(flavors),
          flavorsText(where(k)),
          orText(mine.flatMap((u) => u.expect)),
          purposes(mine, flavors),
        ],
      };
    })
    .sort(order);
  const others = FLAVORS.flatMap((f) => served[f])
    .filter(
      (r, i, all) =>
        !groups.has(key(r.method, r.template)) &&
        all.findIndex((x) => key(x.method, x.template) === key(r.method, r.template)) === i,
    )
    .map((r) => ({
      method: r.method,
      path: name(r.method, r.template),
      cells: [official(r.method, r.template)?.status ?? 'no', flavorsText(where(key(r.method, r.template)))],
    }))
    .sort(order);
  const code = (p: string) => `\`${p}\``;
  return {
    calls: table(
      [
        'method',
        'path',
        'in the official document',
        'docsync calls it in',
        'the emulator serves it in',
        'answers accepted',
        'what for',
      ],
      calls.map((c) => [c.method, code(c.path), ...c.cells]),
    ),
    emulatorOnly: table(
      ['method', 'path', 'in the official document', 'the emulator serves it in'],
      others.map((c) => [c.method, code(c.path), ...c.cells]),
    ),
  };
}

/** The markers around a generated part of a hand-written page. */
export const markers = (part: string) => ({
  start: `<!-- generated: ${part} (npm run generate, scripts/compatibility-doc.ts); edit the generator, not this table -->`,
  end: `<!-- end of generated: ${part} -->`,
});

/** Replaces the text between a part's markers; a page without them is an error naming the part. */
export function replaceBetween(page: string, part: string, body: string, file: string): string {
  const { start, end } = markers(part);
  const from = page.indexOf(start);
  const to = page.indexOf(end);
  if (from < 0 || to < from)
    throw new Error(`${file}: no generated part "${part}" (the markers ${start} … ${end})`);
  return `${page.slice(0, from + start.length)}\n\n${body}\n\n${page.slice(to)}`;
}

/** docs/compatibility.md with its generated tables refreshed (`page`: the page as it is). */
export async function renderCompatibility(page: string, file = 'docs/compatibility.md'): Promise<string> {
  const tables = renderEndpointTables(routeUses(), await emulatorRoutes());
  return replaceBetween(
    replaceBetween(page, 'endpoints', tables.calls, file),
    'emulator-only',
    tables.emulatorOnly,
    file,
  );
}
