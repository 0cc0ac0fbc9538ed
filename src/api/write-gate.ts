import { AsyncLocalStorage } from 'node:async_hooks';
import { DocsyncError } from '../errors.js';

/**
 * Self-fencing (decision 21): the platform cannot check a fencing token, so a writer checks its
 * own right to write before every write request. `remainingMs` is how long a write may still run
 * (0 or less: closed); the HTTP client refuses a write when the gate is closed and ends each write
 * attempt's deadline before the gate closes.
 */
export type WriteGate = {
  remainingMs(): number;
  /** Why the gate is closed, for the error message. */
  readonly label: string;
};

export class WriteGateClosedError extends DocsyncError<'not-owner'> {
  constructor(label: string) {
    super('not-owner', `refused to write: ${label}`);
  }
}

const scope = new AsyncLocalStorage<WriteGate>();

/** Run `fn` with every write it makes (through the HTTP client) passing `gate`. */
export function withWriteGate<T>(gate: WriteGate | undefined, fn: () => Promise<T>): Promise<T> {
  return gate ? scope.run(gate, fn) : fn();
}

/** The gate of the calling context, captured when a request is queued. */
export function currentWriteGate(): WriteGate | undefined {
  return scope.getStore();
}

/** The deadline of one write attempt: the client's timeout, cut short by the gate. Throws when closed. */
export function gatedTimeout(gate: WriteGate | undefined, timeoutMs: number): number {
  if (!gate) return timeoutMs;
  const left = Math.floor(gate.remainingMs());
  if (left <= 0) throw new WriteGateClosedError(gate.label);
  return Math.min(timeoutMs, left);
}
