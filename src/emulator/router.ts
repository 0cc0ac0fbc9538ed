import type { Body } from './validate.js';

export type RouteContext = {
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
};

/** What a handler answers: a status and an optional JSON body. */
export type RouteResult = { status: number; body?: unknown };

export type Handler = (ctx: RouteContext) => RouteResult;

type Route = { method: string; parts: string[]; handler: Handler; template: string };

/** A tiny path router: `/orgs/:orgId/sites` style templates, exact segment counts. */
export class Router {
  private readonly routes: Route[] = [];

  on(method: string, template: string, handler: Handler): this {
    this.routes.push({ method, parts: template.split('/').filter(Boolean), handler, template });
    return this;
  }

  /** Every route served, in registration order. */
  list(): { method: string; template: string }[] {
    return this.routes.map((r) => ({ method: r.method, template: r.template }));
  }

  match(
    method: string,
    path: string,
  ): { handler: Handler; params: Record<string, string>; template: string } | 'method' | null {
    const segments = path.split('/').filter(Boolean).map(decodeURIComponent);
    let pathMatched = false;
    for (const route of this.routes) {
      if (route.parts.length !== segments.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < route.parts.length; i += 1) {
        const part = route.parts[i]!;
        const seg = segments[i]!;
        if (part.startsWith(':')) params[part.slice(1)] = seg;
        else if (part !== seg) {
          ok = false;
          break;
        }
      }
      if (!ok) continue;
      pathMatched = true;
      if (route.method === method) return { handler: route.handler, params, template: route.template };
    }
    return pathMatched ? 'method' : null;
  }
}

export type { Body };
