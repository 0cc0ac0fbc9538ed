/**
 * Writes the inputs of the golden plan cases (desired.yaml, live.json, and options.json or a
 * certificate where a case needs one) under test/fixtures/plans/: the scenarios written by hand
 * (test/golden/scenarios.ts) and each kind's cases, from the examples it declares
 * (test/helpers/kind-examples.ts). Run it with `npm run golden`; the expected outputs are then
 * written by `UPDATE_GOLDEN=1 npx vitest run test/golden` and reviewed in the diff.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { TEST_PEM } from '../test/helpers/certificates.js';
import { exampleCases } from '../test/helpers/kind-examples.js';
import { org, scenarios, type Case } from '../test/golden/scenarios.js';

const ROOT = new URL('../test/fixtures/plans/', import.meta.url).pathname;

/** Each kind's cases: its examples in the golden organization (`org_g`). */
const generated = Object.fromEntries(
  Object.entries(exampleCases(() => ({ config: { organization: 'org_g' }, seed: org() }))).map(
    ([name, c]): [string, Case] => [
      name,
      {
        desired: stringify(c.config),
        live: c.seed as Case['live'],
        ...(c.flavor !== 'seed' ? { options: { flavor: c.flavor } } : {}),
      },
    ],
  ),
);

export const cases: Record<string, Case> = { ...scenarios, ...generated };

/** Real certificates: indirect values must parse as one. */
const PEM = TEST_PEM;

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

export function writeCases(root = ROOT): number {
  for (const [name, c] of Object.entries(cases)) {
    const dir = join(root, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'desired.yaml'), c.desired);
    writeFileSync(join(dir, 'live.json'), json(c.live));
    if (c.options) writeFileSync(join(dir, 'options.json'), json(c.options));
    if (c.desired.includes('okta.pem')) writeFileSync(join(dir, 'okta.pem'), PEM);
  }
  return Object.keys(cases).length;
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(`${writeCases()} cases`);
