import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfigFromBuffers } from '../../src/config/load.js';
import { diff } from '../../src/diff/diff.js';
import { stateFromSeed } from '../../src/emulator/seed.js';
import { buildPlan, checkSafety, renderJson, renderText } from '../../src/plan/index.js';
import { liveFromEmulator } from '../helpers/live-model.js';

/**
 * Golden plans: desired YAML + live state (an emulator seed) → expected text and JSON plan.
 * Regenerate with UPDATE_GOLDEN=1 and review the diff.
 */
export const PLANS = new URL('../fixtures/plans/', import.meta.url).pathname;
export const cases = readdirSync(PLANS).filter((d) => existsSync(join(PLANS, d, 'desired.yaml'))).sort();

export function planCase(name: string) {
  const dir = join(PLANS, name);
  const loaded = loadConfigFromBuffers([{ file: 'desired.yaml', bytes: readFileSync(join(dir, 'desired.yaml')) }]);
  if (!loaded.desired) throw new Error(`${name}: invalid desired.yaml: ${JSON.stringify(loaded.issues)}`);
  const seed = JSON.parse(readFileSync(join(dir, 'live.json'), 'utf8')) as unknown;
  const plan = buildPlan(diff(loaded.desired, liveFromEmulator(stateFromSeed(seed))));
  return { dir, desired: loaded.desired, seed, plan };
}

function textOf(plan: ReturnType<typeof planCase>['plan']): string {
  const refusals = checkSafety(plan, 0).map((r) => `refused: ${r.message}\n`);
  return renderText(plan) + refusals.join('');
}

describe('golden plans', () => {
  it('has at least 25 cases', () => expect(cases.length).toBeGreaterThanOrEqual(25));
  it.each(cases)('%s', (name) => {
    const { dir, plan } = planCase(name);
    const text = textOf(plan);
    const json = renderJson(plan);
    if (process.env['UPDATE_GOLDEN']) {
      writeFileSync(join(dir, 'expected.txt'), text);
      writeFileSync(join(dir, 'expected.json'), json);
    }
    expect(text).toBe(readFileSync(join(dir, 'expected.txt'), 'utf8'));
    expect(json).toBe(readFileSync(join(dir, 'expected.json'), 'utf8'));
  });
  it('is deterministic: the same inputs give the same plan and checksum', () => {
    for (const name of cases) expect(planCase(name).plan.checksum).toBe(planCase(name).plan.checksum);
  });
});
