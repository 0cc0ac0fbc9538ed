import type { z } from 'zod';
import { VERSION } from '../version.js';
import { HttpClient, type HttpMethod, type HttpObserver } from './http.js';
import { parseAnswer } from './parse.js';
import type { ApiFlavor } from '../model/kinds.js';

export type ClientOptions = {
  apiUrl: string;
  token: string;
  concurrency?: number;
  timeoutMs?: number;
  maxAttempts?: number;
  maxResponseBytes?: number;
  maxPages?: number;
  observer?: HttpObserver;
  flavor?: ApiFlavor;
  /** Default `docsync/VERSION`; a daemon replica adds its id (the API's logs tell replicas apart). */
  userAgent?: string;
};

export const enc = encodeURIComponent;

/** Deletes answer 204 or 205 (the real service answers either); member removal may answer 202. */
export const DELETED = [202, 204, 205] as const;

/** The client's plumbing: the one HttpClient (queue, rate budget, retries) and typed calls. */
export class BaseClient {
  readonly http: HttpClient;
  readonly flavor: ApiFlavor;

  constructor(options: ClientOptions) {
    this.flavor = options.flavor ?? 'seed';
    this.http = new HttpClient({
      baseUrl: options.apiUrl,
      token: options.token,
      userAgent: options.userAgent ?? `docsync/${VERSION}`,
      ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
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
