/** A request of the API client (`HttpClient.send`) and its answer. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type HttpRequest = {
  method: HttpMethod;
  /** Path under `/v1`, already filled in: `/orgs/org_1/sites`. */
  path: string;
  /** Route template for errors and metrics: `/orgs/{org}/sites`. */
  route: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** Success statuses; anything else is an error. */
  expect: readonly number[];
  /**
   * A creating POST: retried only when the request never reached the server; ambiguous
   * failures surface to the caller (apply re-reads and adopts).
   */
  create?: boolean;
  /** Queued ahead of requests of a lower priority (default 0): a list's next page (decision 39). */
  priority?: number;
  /**
   * Shown an expected answer's bytes before they are parsed; true when it sent a request (a list's
   * next page, named in them) that the parse should let be written first (`HttpClient.attempt`).
   */
  peek?: (status: number, bytes: Buffer) => boolean;
};

export type HttpResponse = { status: number; body: unknown };
