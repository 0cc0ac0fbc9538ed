/**
 * Writes the inputs of the golden plan cases (desired.yaml, live.json, and options.json or a
 * certificate where a case needs one) under test/fixtures/plans/: the scenarios written by hand
 * (test/golden/scenarios.ts) and each kind's cases, from the examples it declares
 * (test/helpers/kind-examples.ts). `npm run generate` (or `npm run golden`) writes them, then the
 * expected outputs (as `UPDATE_GOLDEN=1 npx vitest run test/golden` does): review them in the diff.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
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

/** Every file of the cases, by path below the fixtures folder (`create-everything/desired.yaml`). */
export function caseFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const [name, c] of Object.entries(cases)) {
    files.set(`${name}/desired.yaml`, c.desired);
    files.set(`${name}/live.json`, json(c.live));
    if (c.options) files.set(`${name}/options.json`, json(c.options));
    if (c.desired.includes('okta.pem')) files.set(`${name}/okta.pem`, PEM);
  }
  return files;
}

export function writeCases(root = ROOT): number {
  for (const [path, text] of caseFiles()) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return Object.keys(cases).length;
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(`${writeCases()} cases`);
