import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { applyPlan } from '../../src/apply/run.js';
import { makePlan } from '../../src/pipeline/plan-run.js';
import { cases, planCase } from '../helpers/golden.js';
import { client, withEmulator } from '../helpers/emulator.js';

/**
 * Conformance with today's service: every request docsync sends while applying the golden cases
 * with --api-flavor current must match an operation of the official OpenAPI document
 * (@gitbook/api) and validate against its request body schema and path parameter patterns.
 */
const require = createRequire(import.meta.url);
const spec = JSON.parse(readFileSync(require.resolve('@gitbook/api/spec/openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, any>>;
  components: { parameters?: Record<string, any> };
};
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
addFormats.default(ajv);
ajv.addSchema({ ...spec, $id: 'openapi' });

const routes = Object.keys(spec.paths).map((template) => ({
  template,
  regex: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '([^/]+)')}$`),
  names: [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!),
}));

const pointer = (...parts: string[]) =>
  parts.map((p) => encodeURIComponent(p.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');

function check(method: string, path: string, body: unknown): string[] {
  const local = path.replace(/^\/v1/, '');
  const route = routes.find((r) => r.regex.test(local) && spec.paths[r.template]![method.toLowerCase()]);
  if (!route) return [`${method} ${local}: no such operation in the official document`];
  const op = spec.paths[route.template]![method.toLowerCase()];
  const problems: string[] = [];
  if (op.deprecated) problems.push(`${method} ${route.template} is deprecated`);
  const values = route.regex.exec(local)!.slice(1).map(decodeURIComponent);
  const params = [...(spec.paths[route.template]!['parameters'] ?? []), ...(op.parameters ?? [])].map(
    (p: any) => (p.$ref ? spec.components.parameters![p.$ref.split('/').pop()] : p),
  );
  route.names.forEach((name, i) => {
    const param = params.find((p: any) => p.name === name && p.in === 'path');
    const pattern = param?.schema?.pattern ?? (param?.schema?.$ref ? undefined : undefined);
    if (pattern && !new RegExp(pattern).test(values[i]!))
      problems.push(`${name}=${values[i]} does not match ${pattern}`);
  });
  const schemaAt = op.requestBody?.content?.['application/json']?.schema;
  if (body !== undefined) {
    if (!schemaAt) problems.push(`${method} ${route.template} takes no JSON body`);
    else {
      const validate = ajv.getSchema(
        `openapi#/${pointer('paths', route.template, method.toLowerCase(), 'requestBody', 'content', 'application/json', 'schema')}`,
      )!;
      if (!validate(body))
        problems.push(
          `${method} ${route.template}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(body)}`,
        );
    }
  } else if (op.requestBody?.required) problems.push(`${method} ${route.template} requires a body`);
  return problems;
}

describe('requests of the current flavor against the official OpenAPI document', () => {
  it('every write docsync sends while applying the golden cases validates', async () => {
    let checked = 0;
    const ran: string[] = [];
    for (const name of cases) {
      const golden = planCase(name);
      for (const [k, v] of Object.entries(golden.env)) process.env[k] = v;
      const emu = await withEmulator({ seed: golden.seed, flavor: 'current' });
      const api = client(emu, { flavor: 'current' });
      try {
        const { plan } = await makePlan(api, golden.desired);
        if (plan.errors.length > 0 || plan.changes.length === 0) continue;
        ran.push(name);
        const result = await applyPlan(plan, api);
        expect(
          result.results.filter((r) => r.status !== 'applied'),
          name,
        ).toEqual([]);
        expect((await makePlan(api, golden.desired)).plan.changes, `${name}: converged`).toEqual([]);
        for (const r of emu.requests()) {
          if (r.method === 'GET') continue;
          checked += 1;
          expect(check(r.method, r.path, r.body), `${name}`).toEqual([]);
        }
      } finally {
        await api.close();
        await emu.close();
      }
    }
    expect(ran.length).toBeGreaterThanOrEqual(20);
    expect(checked).toBeGreaterThan(50);
  }, 120_000);
});
