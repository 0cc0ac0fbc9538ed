import { AnswerTooLargeError, attemptDeadline, readBoundedText } from '../api/bounded-body.js';
import { BoundedFileError, readBoundedFileSync } from '../secrets/bounded-file.js';
import { Agent, request } from '../api/undici.js';
import { DocsyncError, type DocsyncErrorOptions } from '../errors.js';

/**
 * A small etcd v3 client over etcd's JSON gateway (`/v3/...`, served by etcd 3.4+ on the client
 * port): leases, ranges and transactions, nothing else (decision 21 says why not a gRPC library).
 * Keys and values travel base64-encoded; 64-bit numbers as decimal strings.
 */
export type EtcdClientOptions = {
  endpoints: string[];
  /** PEM files for TLS: the CA that signed etcd's certificate, and a client certificate and key. */
  caFile?: string;
  certFile?: string;
  keyFile?: string;
  /** Deadline of one request (headers and body together, across endpoints), in ms. */
  requestTimeoutMs?: number;
  /** Largest answer accepted, in bytes (default `MAX_ETCD_ANSWER_BYTES`). */
  maxAnswerBytes?: number;
};

/**
 * The largest etcd answer docsync accepts. The biggest it reads is the range of its prefix: one
 * key per replica, owned organization and waiting CLI, each well under 1 KiB (base64 in JSON).
 */
export const MAX_ETCD_ANSWER_BYTES = 4 * 1024 * 1024;

export type KeyValue = {
  key: string;
  value: string;
  createRevision: string;
  modRevision: string;
  lease?: string;
};

export class EtcdError extends DocsyncError<'etcd'> {
  constructor(message: string, options?: DocsyncErrorOptions) {
    super('etcd', message, options);
  }
}

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const unb64 = (s: string | undefined) => Buffer.from(s ?? '', 'base64').toString('utf8');

/** The end of the range that holds every key starting with `prefix`. */
export function prefixEnd(prefix: string): string {
  const bytes = Buffer.from(prefix, 'utf8');
  for (let i = bytes.length - 1; i >= 0; i -= 1) {
    if (bytes[i]! < 0xff) {
      const end = bytes.subarray(0, i + 1);
      end[i] = bytes[i]! + 1;
      return end.toString('base64');
    }
  }
  return Buffer.from([0]).toString('base64');
}

/** The fields of the gateway's JSON answers that docsync reads. */
type Answer = {
  error?: string;
  message?: string;
  ID?: string;
  result?: { TTL?: string };
  kvs?: RawKv[];
  succeeded?: boolean;
  header?: { revision?: string };
  responses?: { response_range?: { kvs?: RawKv[] } }[];
};

type RawKv = {
  key?: string;
  value?: string;
  create_revision?: string;
  mod_revision?: string;
  lease?: string;
};
const toKv = (kv: RawKv): KeyValue => ({
  key: unb64(kv.key),
  value: unb64(kv.value),
  createRevision: kv.create_revision ?? '0',
  modRevision: kv.mod_revision ?? '0',
  ...(kv.lease && kv.lease !== '0' ? { lease: kv.lease } : {}),
});

/** The most a CA bundle, certificate or key file may hold. */
export const MAX_PEM_FILE_BYTES = 1024 * 1024;

/** A TLS file for etcd: regular, at most 1 MiB, read without blocking; errors name the flag. */
function readPem(file: string, flag: string): Buffer {
  try {
    return readBoundedFileSync(file, MAX_PEM_FILE_BYTES);
  } catch (error) {
    if (error instanceof BoundedFileError) throw new EtcdError(`${flag} ${file} ${error.message}`);
    throw error;
  }
}

export class EtcdClient {
  private readonly agent: InstanceType<typeof Agent>;
  private readonly endpoints: string[];
  private current = 0;
  private readonly timeoutMs: number;
  private readonly maxAnswerBytes: number;

  constructor(opts: EtcdClientOptions) {
    if (opts.endpoints.length === 0) throw new EtcdError('no etcd endpoint given');
    this.endpoints = opts.endpoints.map((e) => e.replace(/\/+$/, ''));
    this.timeoutMs = opts.requestTimeoutMs ?? 2000;
    this.maxAnswerBytes = opts.maxAnswerBytes ?? MAX_ETCD_ANSWER_BYTES;
    const tls =
      opts.caFile || opts.certFile || opts.keyFile
        ? {
            ...(opts.caFile ? { ca: readPem(opts.caFile, '--etcd-ca') } : {}),
            ...(opts.certFile ? { cert: readPem(opts.certFile, '--etcd-cert') } : {}),
            ...(opts.keyFile ? { key: readPem(opts.keyFile, '--etcd-key') } : {}),
          }
        : undefined;
    this.agent = new Agent({ keepAliveTimeout: 10_000, ...(tls ? { connect: tls } : {}) });
  }

  /**
   * One call; a transport failure tries the next endpoint, within one overall deadline that covers
   * the body too (a server that trickles bytes still times out). An answer larger than
   * `maxAnswerBytes` is refused as it streams in (the connection is dropped), never buffered whole.
   */
  private async call(path: string, body: unknown, timeoutMs = this.timeoutMs): Promise<Answer> {
    const deadline = attemptDeadline(timeoutMs);
    try {
      return await this.attempt(path, body, deadline.signal);
    } finally {
      deadline.clear();
    }
  }

  private async attempt(path: string, body: unknown, signal: AbortSignal): Promise<Answer> {
    let lastError: unknown;
    for (let i = 0; i < this.endpoints.length; i += 1) {
      const endpoint = this.endpoints[(this.current + i) % this.endpoints.length]!;
      let status: number;
      let text: string;
      try {
        const url = new URL(endpoint);
        const res = await request(this.agent, url.origin, `${url.pathname.replace(/\/$/, '')}${path}`, {
          method: 'POST',
          body: JSON.stringify(body),
          headers: { 'content-type': 'application/json' },
          signal,
        });
        status = res.statusCode;
        text = await readBoundedText(res, this.maxAnswerBytes);
      } catch (error) {
        if (error instanceof AnswerTooLargeError)
          throw new EtcdError(`etcd ${path}: the answer is larger than ${this.maxAnswerBytes} bytes`, {
            cause: error,
          });
        lastError = signal.aborted ? signal.reason : error;
        if (signal.aborted) break;
        continue;
      }
      this.current = (this.current + i) % this.endpoints.length;
      let parsed: Answer;
      try {
        parsed = JSON.parse(text) as Answer;
      } catch {
        throw new EtcdError(`etcd ${path}: answer ${status} is not JSON`);
      }
      if (status !== 200 || parsed.error)
        throw new EtcdError(`etcd ${path}: ${String(parsed.message ?? parsed.error ?? status)}`);
      return parsed;
    }
    throw new EtcdError(
      `etcd unreachable (${this.endpoints.join(', ')}): ${(lastError as Error)?.message ?? 'timeout'}`,
    );
  }

  async grant(ttlSeconds: number): Promise<string> {
    const r = await this.call('/v3/lease/grant', { TTL: String(ttlSeconds) });
    if (!r.ID) throw new EtcdError('etcd granted no lease');
    return String(r.ID);
  }

  /** Renew a lease; the TTL it now has, 0 when it no longer exists. */
  async keepAlive(id: string): Promise<number> {
    const r = await this.call('/v3/lease/keepalive', { ID: id });
    return Number(r.result?.TTL ?? 0);
  }

  async revoke(id: string): Promise<void> {
    try {
      await this.call('/v3/lease/revoke', { ID: id });
    } catch (error) {
      if (!/lease not found/.test((error as Error).message)) throw error;
    }
  }

  async range(prefix: string): Promise<KeyValue[]> {
    const r = await this.call('/v3/kv/range', { key: b64(prefix), range_end: prefixEnd(prefix) });
    return (r.kvs ?? []).map(toKv);
  }

  /** Put a key, bound to `lease` (a key without lease: '0'). */
  async put(key: string, value: string, lease = '0'): Promise<void> {
    await this.call('/v3/kv/put', { key: b64(key), value: b64(value), lease });
  }

  /**
   * Create `key` bound to `lease` only if it does not exist (compare its creation revision with 0).
   * The key's creation revision is the fencing token of what it stands for.
   */
  async create(
    key: string,
    value: string,
    lease: string,
  ): Promise<{ created: true; revision: string } | { created: false; existing?: KeyValue }> {
    const r = await this.call('/v3/kv/txn', {
      compare: [{ key: b64(key), target: 'CREATE', result: 'EQUAL', create_revision: '0' }],
      success: [{ request_put: { key: b64(key), value: b64(value), lease } }],
      failure: [{ request_range: { key: b64(key) } }],
    });
    if (r.succeeded) return { created: true, revision: String(r.header?.revision ?? '0') };
    const kv = r.responses?.[0]?.response_range?.kvs?.[0];
    return kv ? { created: false, existing: toKv(kv) } : { created: false };
  }

  /** Delete `key` only if it is still the one created at `createRevision` (never someone else's). */
  async deleteIfCreated(key: string, createRevision: string): Promise<boolean> {
    const r = await this.call('/v3/kv/txn', {
      compare: [{ key: b64(key), target: 'CREATE', result: 'EQUAL', create_revision: createRevision }],
      success: [{ request_delete_range: { key: b64(key) } }],
    });
    return r.succeeded === true;
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
