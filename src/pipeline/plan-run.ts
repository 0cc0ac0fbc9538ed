import type { ApiClient } from '../api/client.js';
import { diff } from '../diff/diff.js';
import { readLive, type ReadProgress } from '../live/read.js';
import type { DesiredState, LiveState } from '../model/index.js';
import { buildPlan } from '../plan/build.js';
import type { Plan } from '../plan/types.js';

export type PlanRun = { desired: DesiredState; live: LiveState; plan: Plan };

/** Read live state for what the config manages, diff and order: the plan, and what it came from. */
export async function makePlan(
  api: ApiClient,
  desired: DesiredState,
  onProgress?: (p: ReadProgress) => void,
): Promise<PlanRun> {
  const live = await readLive(api, desired, onProgress);
  return { desired, live, plan: buildPlan(diff(desired, live, { capabilities: api.capabilities })) };
}
