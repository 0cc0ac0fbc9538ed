import type { IncomingMessage, ServerResponse } from 'node:http';
import { isLoopback } from '../daemon/ui-auth.js';
import { readBody, send, sendError } from './http-io.js';
import { reset, setFaults, type Running } from './running.js';

/** The control endpoints under `/_emulator/` (state, request log, reset, faults): loopback only. */
export async function control(
  run: Running,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
): Promise<void> {
  if (!isLoopback(req.socket.remoteAddress ?? ''))
    return sendError(res, 403, 'control endpoints answer on loopback only');
  const raw = req.method === 'POST' ? await readBody(req) : '';
  const body = raw ? (JSON.parse(raw) as unknown) : undefined;
  if (req.method === 'GET' && path === '/_emulator/state') return send(res, 200, run.state);
  if (req.method === 'GET' && path === '/_emulator/requests') return send(res, 200, run.log);
  if (req.method === 'POST' && path === '/_emulator/reset') {
    reset(run, body);
    return send(res, 200, { ok: true });
  }
  if (req.method === 'POST' && path === '/_emulator/faults') {
    setFaults(run, body);
    return send(res, 200, run.faults);
  }
  return sendError(res, 404, `no control endpoint ${req.method} ${path}`);
}
