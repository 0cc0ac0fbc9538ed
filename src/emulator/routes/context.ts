import type { Router } from '../router.js';
import type { Shapes } from '../shapes.js';
import type { EmulatorState } from '../state.js';

/** What every route family gets: the live state, the serializers and the router. */
export type RouteDeps = {
  state: () => EmulatorState;
  shapes: Shapes;
  router: Router;
  flavor: 'seed' | 'current';
};
