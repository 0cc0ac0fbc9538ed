import { applyPlan } from '../../src/apply/run.js';
import { loadConfigFromBuffers } from '../../src/config/load.js';
import type { Emulator } from '../../src/emulator/server.js';
import type { ApiFlavor } from '../../src/model/index.js';
import { makePlan } from '../../src/pipeline/plan-run.js';
import type { Plan } from '../../src/plan/types.js';
import { client, withEmulator } from './emulator.js';

/** One emulator and a client of the given flavor, for plan-then-apply tests. */
export async function session(seed: unknown, flavor: ApiFlavor = 'seed') {
  const emu: Emulator = await withEmulator({ seed, flavor });
  const api = client(emu, { flavor });
  const desiredOf = (yaml: string) => {
    const loaded = loadConfigFromBuffers([{ file: 'docsync.yaml', bytes: Buffer.from(yaml) }]);
    if (!loaded.desired) throw new Error(`invalid config: ${JSON.stringify(loaded.issues)}`);
    return loaded.desired;
  };
  const plan = async (yaml: string): Promise<Plan> => (await makePlan(api, desiredOf(yaml))).plan;
  /** Plan, apply, and check the apply succeeded; returns the plan and the writes it made. */
  const writes = () => emu.requests().filter((r) => r.method !== 'GET');
  const apply = async (yaml: string) => {
    const before = writes().length;
    const p = await plan(yaml);
    if (p.errors.length > 0) throw new Error(`plan errors: ${JSON.stringify(p.errors)}`);
    const result = await applyPlan(p, api);
    const failed = result.results.filter((r) => r.status !== 'applied');
    if (failed.length > 0) throw new Error(`apply failed: ${JSON.stringify(failed)}`);
    return { plan: p, writes: writes().slice(before) };
  };
  const state = () => emu.state();
  const close = async () => {
    await api.close();
    await emu.close();
  };
  return { emu, api, plan, apply, state, close, desiredOf };
}
