import type { Memo } from '../memo.js';
import type { Router } from '../router.js';
import type { Shapes } from '../shapes.js';
import type { EmulatorState } from '../state.js';

/** What every route family gets: the live state, the serializers and the router. */
export type RouteDeps = {
  state: () => EmulatorState;
  shapes: Shapes;
  router: Router;
  flavor: 'seed' | 'current';
  /** The emulator's own URL (`http://127.0.0.1:PORT`), for absolute `urls.location`. */
  baseUrl: () => string;
  /** Indexes of the state kept between writes (src/emulator/memo.ts); none: every lookup scans. */
  memo?: Memo;
};

/** `urls.location`: an absolute URI in today's API, a path as api.md shows it in `seed`. */
export function flavoredLocation(deps: RouteDeps, path: string): string {
  return deps.flavor === 'current' ? `${deps.baseUrl()}/v1${path}` : `/v1${path}`;
}
