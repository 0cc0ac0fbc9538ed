import { afterEach, describe, expect, it } from 'vitest';
import { loadConfigFromBuffers } from '../../src/config/load.js';
import { formatIssue } from '../../src/config/issues.js';
import type { Emulator } from '../../src/emulator/server.js';
import { spaceCustomFieldsKind } from '../../src/kinds/space-custom-fields.js';
import { makePlan } from '../../src/pipeline/plan-run.js';
import { baseSeed, client, withEmulator } from '../helpers/emulator.js';

/** Issue 26, finding 9: names that would touch an object's prototype. */
let emu: Emulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

const RESERVED = ['__proto__', 'constructor', 'prototype'];

const load = (text: string) => loadConfigFromBuffers([{ file: 'org.yaml', bytes: Buffer.from(text) }]);

describe('reserved names are refused at validation, located', () => {
  it.each(RESERVED)('a custom field named %s', (name) => {
    const result = load(
      `organization: org_t\ncustomFields:\n  - name: ok\n    type: text\n  - name: ${name}\n    type: text\n`,
    );
    expect(result.desired).toBeNull();
    expect(result.issues.map(formatIssue)).toContainEqual(
      expect.stringMatching(/^org\.yaml:5:11: error\[reserved-name\] customFields\[1\]\.name: /),
    );
  });
  it.each(RESERVED)("a key %s in a space's customFields values", (name) => {
    const result = load(
      `organization: org_t\ncustomFields:\n  - { name: tier, type: text }\nspaces:\n  - id: space_1\n    customFields:\n      tier: gold\n      ${name}: x\n`,
    );
    expect(result.desired).toBeNull();
    expect(result.issues.map(formatIssue)).toContainEqual(
      expect.stringMatching(/^org\.yaml:8:7: error\[reserved-name\] spaces\[0\]\.customFields(\.|\[")/),
    );
  });
  it.each(RESERVED)('a team titled %s (titles build lookups)', (name) => {
    const result = load(`organization: org_t\nteams:\n  - title: ${name}\n`);
    expect(result.desired).toBeNull();
    expect(result.issues.map(formatIssue)).toContainEqual(
      expect.stringMatching(/^org\.yaml:3:12: error\[reserved-name\] teams\[0\]\.title: /),
    );
  });
  it('any other key anywhere', () => {
    const result = load(`organization: org_t\nsites:\n  - title: Docs\n    constructor: 1\n`);
    expect(result.desired).toBeNull();
    expect(result.issues.map((i) => i.code)).toContain('reserved-name');
  });
});

describe('live data holding reserved names is read like any other', () => {
  it('plans against an organization whose fields and values are named __proto__, constructor, prototype', async () => {
    const seed = baseSeed(2);
    const org = (seed.organizations as Record<string, unknown>[])[0]!;
    org['customFields'] = [...RESERVED, 'tier'].map((name) => ({ name, type: 'text' }));
    (org['spaces'] as Record<string, unknown>[])[0]!['customFields'] = JSON.parse(
      '{"__proto__": "p", "constructor": "c", "prototype": "t", "tier": "gold"}',
    );
    org['teams'] = [{ title: '__proto__' }, { title: 'constructor' }, { title: 'Writers' }];
    emu = await withEmulator({ seed });
    const state = JSON.stringify(emu.state());
    expect(state).toContain('"__proto__":"p"');
    const desired = load(
      `organization: org_t\ncustomFields:\n  - { name: tier, type: text }\nspaces:\n  - id: space_1\n    customFields: { tier: silver }\nteams:\n  - title: Writers\n`,
    ).desired!;
    const api = client(emu);
    try {
      const { plan } = await makePlan(api, desired);
      expect(plan.errors).toEqual([]);
      expect(plan.changes.map((c) => `${c.action} ${c.address}`)).toEqual([
        'update org_t/spaces/space_1/custom-fields',
      ]);
      expect(plan.unmanaged).toBeDefined();
    } finally {
      await api.close();
    }
    expect(({} as Record<string, unknown>)['p']).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('tier');
  });
  it("keeps a live value named __proto__ as a value, never as the map's prototype", () => {
    const answer = JSON.parse(
      '[{"customField":{"name":"__proto__"},"value":["a"]},{"customField":{"name":"tier"},"value":"gold"}]',
    ) as Parameters<typeof spaceCustomFieldsKind.live>[0];
    const values = spaceCustomFieldsKind.live(answer);
    expect(Object.keys(values)).toEqual(['__proto__', 'tier']);
    expect(Object.getPrototypeOf(values)).toBeNull();
    expect(values['constructor']).toBeUndefined();
  });
});
