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
};

export type HttpResponse = { status: number; body: unknown };

/**
 * What the caller of `HttpClient.send` keeps of an expected answer, as an object: a list's page
 * reader is one object a request where it was two closures and their context, kept while the
 * request waits in the client's queue (thousands at once: decision 42's seventeenth pass).
 */
export interface AnswerReader<T> {
  /** What the caller's promise settles with, made as soon as the answer arrives (what it throws is the caller's error). */
  read(res: HttpResponse): T;
  /**
   * Shown an expected answer's bytes before they are parsed; true when it sent a request (a list's
   * next page, named in them) that the parse should let be written first (`HttpClient.attempt`).
   */
  peek(status: number, bytes: Buffer): boolean;
}
