import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderJson, renderText } from '../../src/plan/index.js';
import { cases, planCase } from '../helpers/golden.js';

/** Golden plans: desired YAML + live state (an emulator seed) → expected text and JSON plan. Regenerate with UPDATE_GOLDEN=1 and review the diff. */

/** The text plan shows the guards' verdict itself ("This plan will be refused: …"). */
function textOf(plan: Awaited<ReturnType<typeof planCase>>['plan']): string {
  return renderText(plan);
}

describe('golden plans', () => {
  it('has at least 25 cases', () => expect(cases.length).toBeGreaterThanOrEqual(25));
  it.each(cases)('%s', async (name) => {
    const { dir, plan } = await planCase(name);
    const text = textOf(plan);
    const json = renderJson(plan);
    if (process.env['UPDATE_GOLDEN']) {
      writeFileSync(join(dir, 'expected.txt'), text);
      writeFileSync(join(dir, 'expected.json'), json);
    }
    expect(text).toBe(readFileSync(join(dir, 'expected.txt'), 'utf8'));
    expect(json).toBe(readFileSync(join(dir, 'expected.json'), 'utf8'));
  });
  it('is deterministic: the same inputs give the same plan and checksum', async () => {
    for (const name of cases)
      expect((await planCase(name)).plan.checksum).toBe((await planCase(name)).plan.checksum);
  });
});
