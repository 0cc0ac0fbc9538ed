import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfigFromBuffers } from '../../src/config/load.js';
import { capabilitiesOf } from '../../src/api/capabilities.js';
import { diff } from '../../src/reconcile/diff.js';
import { buildPlan } from '../../src/plan/index.js';
import { liveOfSeed } from './live-model.js';

/**
 * Golden plans: desired YAML + live state (an emulator seed) → expected text and JSON plan.
 * Inputs come from scripts/golden-cases.ts (`npm run golden`); regenerate the expected outputs
 * with UPDATE_GOLDEN=1 and review the diff.
 */
export const PLANS = new URL('../fixtures/plans/', import.meta.url).pathname;
export const cases = readdirSync(PLANS)
  .filter((d) => existsSync(join(PLANS, d, 'desired.yaml')))
  .sort();

export async function planCase(name: string) {
  const dir = join(PLANS, name);
  const options = existsSync(join(dir, 'options.json'))
    ? (JSON.parse(readFileSync(join(dir, 'options.json'), 'utf8')) as {
        flavor?: 'seed' | 'current';
        env?: Record<string, string>;
      })
    : {};
  const flavor = options.flavor ?? 'seed';
  const loaded = loadConfigFromBuffers(
    [
      {
        file: 'desired.yaml',
        bytes: readFileSync(join(dir, 'desired.yaml')),
        path: join(dir, 'desired.yaml'),
      },
    ],
    { ...process.env, ...(options.env ?? {}) },
  );
  if (!loaded.desired) throw new Error(`${name}: invalid desired.yaml: ${JSON.stringify(loaded.issues)}`);
  const seed = JSON.parse(readFileSync(join(dir, 'live.json'), 'utf8')) as unknown;
  const live = await liveOfSeed(seed, flavor, loaded.desired);
  const plan = buildPlan(diff(loaded.desired, live, { capabilities: capabilitiesOf(flavor) }));
  return { dir, desired: loaded.desired, seed, live, plan, flavor, env: options.env ?? {} };
}
