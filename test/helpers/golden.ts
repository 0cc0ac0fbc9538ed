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

type CaseOptions = { flavor?: 'seed' | 'current'; env?: Record<string, string> };

/** A case's options.json (none: the seed flavor, no environment). */
function caseOptions(name: string): CaseOptions {
  const file = join(PLANS, name, 'options.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as CaseOptions) : {};
}

/** A case's API flavor (its options.json), without loading its config. */
export function caseFlavor(name: string): 'seed' | 'current' {
  return caseOptions(name).flavor ?? 'seed';
}

/**
 * A case's inputs: its config (loaded with its environment), the emulator's seed, the flavor and
 * the environment; nothing planned. For the tests that plan through HTTP themselves.
 */
export function caseInputs(name: string) {
  const dir = join(PLANS, name);
  const options = caseOptions(name);
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
  return { dir, desired: loaded.desired, seed, flavor, env: options.env ?? {} };
}

export async function planCase(name: string) {
  const inputs = caseInputs(name);
  const live = await liveOfSeed(inputs.seed, inputs.flavor, inputs.desired);
  const plan = buildPlan(diff(inputs.desired, live, { capabilities: capabilitiesOf(inputs.flavor) }));
  return { ...inputs, live, plan };
}
