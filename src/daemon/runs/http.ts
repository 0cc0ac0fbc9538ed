import { summarize } from './run-record.js';
import type { RunStore } from './run-store.js';

export type JsonAnswer = { status: number; body: unknown };

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

/**
 * `GET /api/runs?limit=&cursor=` (newest first, without each run's changes) and
 * `GET /api/runs/{id}` (one run with its changes and their results). Undefined: not a runs path.
 */
export function runsAnswer(store: RunStore, path: string, query: URLSearchParams): JsonAnswer | undefined {
  if (path === '/api/runs' || path === '/api/runs/') {
    const limitText = query.get('limit');
    const limit = limitText === null ? DEFAULT_LIMIT : Number(limitText);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
      return { status: 400, body: { error: `limit must be an integer from 1 to ${MAX_LIMIT}` } };
    const cursor = query.get('cursor') ?? undefined;
    if (cursor !== undefined && !/^[0-9]{1,15}$/.test(cursor))
      return { status: 400, body: { error: 'cursor must be the nextCursor of an earlier page' } };
    const page = store.list(limit, cursor);
    return { status: 200, body: { runs: page.runs.map(summarize), nextCursor: page.nextCursor } };
  }
  if (path.startsWith('/api/runs/')) {
    let id: string;
    try {
      id = decodeURIComponent(path.slice('/api/runs/'.length));
    } catch {
      return { status: 400, body: { error: 'bad run id' } };
    }
    const run = store.get(id);
    return run ? { status: 200, body: run } : { status: 404, body: { error: 'no such run in the history' } };
  }
  return undefined;
}
