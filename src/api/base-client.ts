import type { z } from 'zod';
import { VERSION } from '../version.js';
import { HttpClient, type HttpMethod } from './http.js';
import type { HttpObserver } from './http-options.js';
import { parseAnswer } from './parse.js';
import type { ApiFlavor } from '../model/kinds.js';
import type { ApiCapabilities } from '../model/capabilities.js';
import type { ApiCall, ApiList, Params } from '../model/api-call.js';
import { capabilitiesOf } from './capabilities.js';
import { listAll, pages } from './paginate.js';
import { registerCredentials } from '../secrets/credentials.js';
import { uriComponent } from './api-url.js';

export type ClientOptions = {
  apiUrl: string;
  token: string;
  concurrency?: number;
  /** Grow above `concurrency` up to this, as the server's rate limit allows (src/api/http.ts). */
  maxConcurrency?: number;
  timeoutMs?: number;
  maxAttempts?: number;
  maxResponseBytes?: number;
  maxPages?: number;
  observer?: HttpObserver;
  flavor?: ApiFlavor;
  /** Default `docsync/VERSION`; a daemon replica adds its id (the API's logs tell replicas apart). */
  userAgent?: string;
};

/** `encodeURIComponent`, which keeps a text that needs no encoding (an id: `org_heavy`) as it is. */
export const enc = uriComponent;

/** A route template with its parameters filled in, encoded: `/orgs/{org}` → `/orgs/acme`. */
export function pathOf(route: string, params: Params): string {
  const parts = templateOf(route);
  let path = parts[0]!;
  for (let i = 1; i < parts.length; i += 2) {
    const value = params[parts[i]!];
    if (value === undefined) throw new Error(`route ${route}: no value for {${parts[i]}}`);
    path += enc(value) + parts[i + 1]!;
  }
  return path;
}

/** A route split once into text and parameter names, alternately (a plan fills thousands). */
const templates = new Map<string, string[]>();
function templateOf(route: string): string[] {
  let parts = templates.get(route);
  if (!parts) templates.set(route, (parts = route.split(/\{(\w+)\}/)));
  return parts;
}

/** The client's plumbing: the one HttpClient (queue, rate budget, retries) and typed calls. */
export class BaseClient {
  readonly http: HttpClient;
  readonly flavor: ApiFlavor;
  /** What the target API can do (src/api/capabilities.ts); the kinds' calls depend on it. */
  readonly capabilities: ApiCapabilities;

  constructor(options: ClientOptions) {
    this.flavor = options.flavor ?? 'seed';
    this.capabilities = capabilitiesOf(this.flavor);
    this.http = new HttpClient({
      baseUrl: options.apiUrl,
      token: options.token,
      userAgent: options.userAgent ?? `docsync/${VERSION}`,
      ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
      ...(options.maxConcurrency !== undefined ? { maxConcurrency: options.maxConcurrency } : {}),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.maxAttempts !== undefined ? { maxAttempts: options.maxAttempts } : {}),
      ...(options.maxResponseBytes !== undefined ? { maxResponseBytes: options.maxResponseBytes } : {}),
      ...(options.maxPages !== undefined ? { maxPages: options.maxPages } : {}),
      ...(options.observer ? { observer: options.observer } : {}),
    });
  }

  close(): Promise<void> {
    return this.http.close();
  }

  /** One call a kind declares (src/kinds/): the executor's only way to the API. */
  async request(call: ApiCall): Promise<unknown> {
    const answer = await this.call(
      call.method,
      pathOf(call.route, call.params),
      call.route,
      call.expect,
      call.answer ?? null,
      call.body,
      call.create ?? false,
    );
    registerCredentials(answer, call.credentials);
    return answer;
  }

  /**
   * Every item of a list a kind declares (in its `live` form, when the list gives one). Not an
   * async function: the list's own promise, without one more layer per read (decision 42).
   */
  list<T, S = T>(list: ApiList<T, S>): Promise<S[]> {
    const query = list.nested ? { nested: true } : undefined;
    let path: string;
    try {
      path = pathOf(list.route, list.params);
    } catch (error) {
      return Promise.reject(error as Error);
    }
    const { live, credentials } = list;
    if (live) {
      // Registered before the item is made into its live form, which may leave them out.
      const made = credentials
        ? (item: T) => {
            registerCredentials(item, credentials);
            return live(item);
          }
        : live;
      return listAll(this.http, path, list.route, list.item, query, made);
    }
    return listAll(this.http, path, list.route, list.item, query).then((items) => {
      for (const item of items as T[]) registerCredentials(item, credentials);
      return items as unknown as S[];
    });
  }

  /**
   * Every item of a list, handed over page by page as each page arrives (`onPage`), so that the
   * reads below a page's items start before the next page is read (decision 39). `leads`: there
   * are such reads, so the list's first page goes ahead of plain lists too.
   */
  async listPages<T>(list: ApiList<T>, onPage: (items: T[]) => void, leads = false): Promise<void> {
    const path = pathOf(list.route, list.params);
    const query = list.nested ? { nested: true } : undefined;
    for await (const page of pages(this.http, path, list.route, list.item, query, leads)) {
      for (const item of page as T[]) registerCredentials(item, list.credentials);
      onPage(page as T[]);
    }
  }

  protected async call<T extends z.ZodType>(
    method: HttpMethod,
    path: string,
    route: string,
    expect: readonly number[],
    schema: T | null,
    body?: unknown,
    create = false,
  ): Promise<z.infer<T>> {
    const res = await this.http.send({ method, path, route, expect, body, create });
    return (schema ? parseAnswer(schema, res.body, method, route) : undefined) as z.infer<T>;
  }
}
