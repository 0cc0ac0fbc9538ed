import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMain } from '../helpers/cli.js';
import { TOKEN } from '../helpers/emulator.js';
import { startOfficialFake, type OfficialFake } from '../helpers/openapi-fake.js';
import { checkRequest, officialVersion } from '../helpers/openapi.js';

/**
 * docsync's plan, drift and export in the current flavor against a fake built only from the
 * official OpenAPI document (schema-generated answers with unknown fields, nulls, empty pages):
 * a version of `@gitbook/api` that changes the shapes docsync reads makes this test fail.
 */
const config = `organization: org1
policy: { prune: true, maxDeletes: 1000 }
settings:
  title: Example Inc
  emailDomains: [example.com]
  defaultRole: read
  inviteLinks: false
  ai: true
members: [] # read in the official shape (random users: none to name here)
collections:
  - title: Product
    description: Everything customers read
spaces:
  - id: space_api
    title: API Reference
    parent: Product
teams:
  - title: Docs Writers # no members: the fake's users are random, and a user it does not list is a plan error
openapi:
  - slug: petstore
    source: https://example.com/openapi/petstore.yaml
saml:
  - label: Okta
    ssoURL: https://example.okta.com/app/sso/saml
    defaultRole: read
sites:
  - title: Developer Docs
    visibility: public
    adaptiveSchema:
      type: object
      additionalProperties: false
      properties:
        beta: { type: boolean, description: Beta tester }
    shareLinks:
      - { name: partner-preview, active: true }
    sectionGroups:
      - { title: Products, sections: [api] }
    sections:
      - path: api
        title: API Reference
        spaces:
          - { space: space_api, path: v1, default: true }
`;

let fake: OfficialFake;
let dir: string;
beforeAll(async () => {
  fake = await startOfficialFake();
  dir = mkdtempSync(join(tmpdir(), 'docsync-fake-'));
  mkdirSync(join(dir, 'config'));
  writeFileSync(join(dir, 'config', 'org.yaml'), config);
});
afterAll(async () => fake?.close());

const run = (args: string[]) =>
  runMain([...args, '--api-url', fake.url, '--api-flavor', 'current'], {
    DOCSYNC_TOKEN: TOKEN,
    DOCSYNC_API_URL: undefined,
    DOCSYNC_API_FLAVOR: undefined,
  });

describe(`docsync against a fake generated from the official document (@gitbook/api ${officialVersion})`, () => {
  it('plan, drift and export succeed, and every request docsync sent is valid', async () => {
    const plan = await run(['plan', '--config', join(dir, 'config'), '--format', 'json']);
    expect(plan.code, fake.problems.join('\n') + plan.stdout).toBe(0);
    const parsed = JSON.parse(plan.stdout) as { changes: unknown[] };
    expect(parsed.changes.length).toBeGreaterThan(0);

    const drift = await run(['drift', '--config', join(dir, 'config')]);
    expect(drift.code, drift.stderr).toBe(2);

    const out = join(dir, 'export');
    const exported = await run(['export', '--org', 'org1', '--out', out]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(readdirSync(out)).toContain('organization.yaml');

    expect(fake.problems).toEqual([]);
    const reads = fake.requests.filter((r) => r.method === 'GET');
    expect(fake.requests.length).toBe(reads.length); // plan, drift and export never write
    expect(reads.length).toBeGreaterThan(30);
    expect(reads.some((r) => r.path.endsWith('/sections'))).toBe(true);
    expect(reads.some((r) => r.path.endsWith('/translations'))).toBe(true);
    expect(fake.requests.filter((r) => r.status >= 300)).toEqual([]);
    expect(fake.requests.flatMap((r) => checkRequest(r.method, r.path + r.query, r.body))).toEqual([]);
  }, 60_000);

  it('apply makes its writes; deletes answered 204 or 205 both count as done', async () => {
    // A stateless fake cannot create a section that holds the space asked for: no sections here.
    mkdirSync(join(dir, 'apply'));
    writeFileSync(join(dir, 'apply', 'org.yaml'), config.slice(0, config.indexOf('    sectionGroups:')));
    const before = fake.requests.length;
    const applied = await run([
      'apply',
      '--config',
      join(dir, 'apply'),
      '--yes',
      '--allow-deletes',
      '1000',
      '--state-dir',
      join(dir, 'state'),
    ]);
    expect(applied.code, fake.problems.join('\n') + applied.stdout + applied.stderr).toBe(0);
    const mine = fake.requests.slice(before);
    const writes = mine.filter((r) => r.method !== 'GET');
    expect(writes.length).toBeGreaterThan(5);
    const deletes = writes.filter((r) => r.method === 'DELETE').map((r) => r.status);
    expect(deletes).toContain(204);
    expect(deletes).toContain(205);
    expect(fake.problems).toEqual([]);
    expect(mine.flatMap((r) => checkRequest(r.method, r.path + r.query, r.body))).toEqual([]);
  }, 60_000);
});
