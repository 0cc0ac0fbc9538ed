import { ApiClient } from '../../src/api/client.js';
import { ApiError, codeForStatus } from '../../src/api/errors.js';
import type { AnswerReader, HttpRequest, HttpResponse } from '../../src/api/http.js';
import { stateFromSeed } from '../../src/emulator/seed.js';
import type { Emulator } from '../../src/emulator/server.js';
import { readScoped } from '../../src/live/read.js';
import { everything, scopeOf } from '../../src/live/scope.js';
import type { DesiredState, LiveState } from '../../src/reconcile/index.js';
import { TOKEN, withEmulator } from './emulator.js';

const cache = new Map<string, LiveState>();

/**
 * The live model of an emulator seed: what the live reader produces, with the kinds' own declared
 * reads over the emulator's answers, asked in this process (`Emulator.dispatch`, no HTTP); no kind
 * is mapped here. Everything is read (as export does), but only the spaces `desired` manages get
 * their one GET each (as a plan does). Golden plan tests use it; an integration test checks that
 * the reader scoped by the config gives the same plan. The same inputs are read once per process.
 */
export async function liveOfSeed(
  seed: unknown,
  flavor: 'seed' | 'current' = 'seed',
  desired?: DesiredState,
): Promise<LiveState> {
  const key = JSON.stringify([seed, flavor, desired ?? null]);
  const known = cache.get(key);
  if (known) return structuredClone(known);
  const state = stateFromSeed(seed);
  const emu = await withEmulator({ seed: state, flavor });
  const api = inProcessClient(emu, flavor);
  try {
    const organizations = [];
    for (const org of state.organizations) {
      const config = desired?.organizations.find((o) => o.id === org.id);
      const spaces = config ? scopeOf(config) : { spaceDetails: [], spaceIds: [] };
      const scope = { ...everything(), spaceDetails: spaces.spaceDetails, spaceIds: spaces.spaceIds };
      organizations.push(await readScoped(api, org.id, scope));
    }
    cache.set(key, { organizations });
    return structuredClone({ organizations });
  } finally {
    await api.close();
    await emu.close();
  }
}

/** An API client whose requests the emulator answers in this process (the client's own pagination and parsing). */
function inProcessClient(emu: Emulator, flavor: 'seed' | 'current'): ApiClient {
  const api = new ApiClient({ apiUrl: emu.url, token: TOKEN, flavor });
  // As the client's: `shape` (a function or a reader: a list's page) makes what the caller gets of an answer (src/api/http-pacing.ts).
  const send = (
    req: HttpRequest,
    shape?: ((res: HttpResponse) => unknown) | AnswerReader<unknown>,
  ): Promise<unknown> => {
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined) query.set(k, String(v));
    const res = emu.dispatch(req.method, req.path, query, req.body);
    if (req.expect.includes(res.status)) {
      const answer = { status: res.status, body: res.body };
      return Promise.resolve(answer).then(
        typeof shape === 'function' ? shape : shape ? (a) => shape.read(a) : (a) => a,
      );
    }
    const message = (res.body as { error?: { message?: string } } | undefined)?.error?.message;
    return Promise.reject(
      new ApiError({
        code: codeForStatus(res.status),
        method: req.method,
        route: req.route,
        status: res.status,
        ...(message !== undefined ? { apiMessage: message } : {}),
        sent: true,
      }),
    );
  };
  Object.assign(api.http, { send });
  return api;
}
