import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfigFromBuffers } from '../../src/config/load.js';
import { formatIssue } from '../../src/config/issues.js';
import { ConfigFileSchema } from '../../src/config/schema.js';
import { TEST_PEM } from '../helpers/certificates.js';
import { ROOT } from '../helpers/cli.js';

/** The top-level keys of a config file. */
const CONFIG_KEYS = new Set(Object.keys(ConfigFileSchema.shape));

type Example = { where: string; text: string };

/** Every ```yaml block of README.md and docs/*.md that is a docsync config or a fragment of one. */
function examples(): Example[] {
  const files = [
    'README.md',
    ...readdirSync(join(ROOT, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
  const out: Example[] = [];
  for (const file of files) {
    const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
    for (let i = 0; i < lines.length; i += 1) {
      if (!/^```ya?ml\s*$/.test(lines[i]!)) continue;
      const start = i + 1;
      let end = start;
      while (end < lines.length && !/^```\s*$/.test(lines[end]!)) end += 1;
      const text = lines.slice(start, end).join('\n');
      i = end;
      const doc = parse(text) as unknown;
      if (!doc || typeof doc !== 'object' || Array.isArray(doc)) continue;
      const keys = Object.keys(doc);
      if (keys.length === 0 || !keys.every((k) => CONFIG_KEYS.has(k))) continue;
      const full = keys.includes('organization') ? text : `organization: org_example\n${text}`;
      out.push({ where: `${file}:${start + 1}`, text: full });
    }
  }
  return out;
}

const env = { DOCSYNC_SECRET_OKTA_CERT: TEST_PEM };

describe('the YAML examples of README.md and docs/ (issue 27)', () => {
  const all = examples();
  const schema = JSON.parse(readFileSync(join(ROOT, 'schema/docsync.schema.json'), 'utf8')) as object;
  // The schema's formats (uri, email) are checked, as an editor checks them, not ignored with a warning.
  // `optimize: false`: without ajv's passes that only trim the generated code (the same validator and
  // messages, as test/helpers/openapi.ts compiles the official document's schemas).
  const ajv = new Ajv({ strict: false, allErrors: true, code: { optimize: false } });
  addFormats.default(ajv);
  const validate = ajv.compile(schema);

  it('finds them (a complete example and one per kind in the configuration reference)', () => {
    expect(all.length).toBeGreaterThanOrEqual(10);
    expect(all.some((e) => e.text.includes('saml:'))).toBe(true);
  });

  it.each(all.map((e) => [e.where, e] as const))(
    '%s passes docsync validate and the JSON Schema',
    (_where, e) => {
      const result = loadConfigFromBuffers([{ file: e.where, bytes: Buffer.from(e.text) }], env, {
        root: ROOT,
      });
      expect(result.issues.filter((i) => i.severity === 'error').map(formatIssue)).toEqual([]);
      const ok = validate(parse(e.text));
      expect(ok ? [] : validate.errors).toEqual([]);
    },
  );

  it('the JSON Schema carries the DOCSYNC_SECRET_ rule of validate', () => {
    const config = (name: string) => ({
      organization: 'org_t',
      saml: [{ label: 'Okta', certificate: { env: name } }],
    });
    expect(validate(config('OKTA_CERT'))).toBe(false);
    expect(validate(config('DOCSYNC_TOKEN'))).toBe(false);
    expect(validate(config('DOCSYNC_SECRET_'))).toBe(false);
    expect(validate(config('DOCSYNC_SECRET_OKTA_CERT'))).toBe(true);
  });
});
