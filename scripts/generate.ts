/**
 * `npm run generate`: refreshes every file derived from the code (mostly from the kind registry):
 *
 * - `schema/docsync.schema.json` and `docs/configuration.md`, from the zod config schema;
 * - the endpoint tables of `docs/compatibility.md`, from the kinds' routes (scripts/compatibility-doc.ts);
 * - the golden plan cases' inputs under `test/fixtures/plans/` (scripts/golden-cases.ts), then
 *   their expected plans (`expected.txt`, `expected.json`: review the diff).
 *
 * `npm run generate -- --check` writes nothing: it lists each generated file that is stale and
 * exits 1 (test/ci/generated.test.ts runs the same check in-process). `npm run schema` and
 * `npm run golden` run one part (`generate.ts schema`, `generate.ts golden`).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configJsonSchemaText } from '../src/config/json-schema.js';
import { renderReference } from '../src/config/reference-doc.js';
import { renderCompatibility } from './compatibility-doc.js';
import { caseFiles } from './golden-cases.js';

/** The repository's root. */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));

const PLANS = 'test/fixtures/plans';
const COMPATIBILITY = 'docs/compatibility.md';

export const PARTS = ['schema', 'compatibility', 'golden'] as const;
export type Part = (typeof PARTS)[number];

/** A generated file: its path from the root, and the text it should hold. */
export type GeneratedFile = { path: string; text: string };

/** Every generated file of the parts, as the code says it should be (`root`: where the pages are read). */
export async function generatedFiles(
  root: string = ROOT,
  parts: readonly Part[] = PARTS,
): Promise<GeneratedFile[]> {
  const files: GeneratedFile[] = [];
  if (parts.includes('schema'))
    files.push(
      { path: 'schema/docsync.schema.json', text: configJsonSchemaText() },
      { path: 'docs/configuration.md', text: renderReference() },
    );
  if (parts.includes('compatibility')) {
    const page = readFileSync(join(root, COMPATIBILITY), 'utf8');
    files.push({ path: COMPATIBILITY, text: await renderCompatibility(page, COMPATIBILITY) });
  }
  if (parts.includes('golden'))
    for (const [path, text] of caseFiles()) files.push({ path: `${PLANS}/${path}`, text });
  return files;
}

/** Golden case folders the generator no longer makes (a folder with a `desired.yaml`). */
function leftoverCases(root: string, files: GeneratedFile[]): string[] {
  const dir = join(root, PLANS);
  if (!existsSync(dir)) return [];
  const made = new Set(files.filter((f) => f.path.startsWith(`${PLANS}/`)).map((f) => f.path.split('/')[3]));
  return readdirSync(dir)
    .filter((name) => existsSync(join(dir, name, 'desired.yaml')) && !made.has(name))
    .map((name) => `${PLANS}/${name}/`);
}

const committed = (root: string, path: string) =>
  existsSync(join(root, path)) ? readFileSync(join(root, path), 'utf8') : undefined;

/**
 * The generated files that differ from what the code generates (missing ones included), and the
 * golden case folders it no longer makes. Nothing is written.
 */
export async function staleFiles(root: string = ROOT, parts: readonly Part[] = PARTS): Promise<string[]> {
  return staleAgainst(root, await generatedFiles(root, parts), parts);
}

/** The files of `files` that differ from those under `root`, and the case folders `files` does not make. */
export function staleAgainst(root: string, files: GeneratedFile[], parts: readonly Part[] = PARTS): string[] {
  return [
    ...files.filter((f) => committed(root, f.path) !== f.text).map((f) => f.path),
    ...(parts.includes('golden') ? leftoverCases(root, files) : []),
  ];
}

/** Writes every generated file that changed (and removes case folders no longer made): the paths touched. */
export async function writeGenerated(root: string = ROOT, parts: readonly Part[] = PARTS): Promise<string[]> {
  const files = await generatedFiles(root, parts);
  const touched: string[] = [];
  for (const f of files) {
    if (committed(root, f.path) === f.text) continue;
    mkdirSync(dirname(join(root, f.path)), { recursive: true });
    writeFileSync(join(root, f.path), f.text);
    touched.push(f.path);
  }
  if (parts.includes('golden'))
    for (const folder of leftoverCases(root, files)) {
      rmSync(join(root, folder), { recursive: true, force: true });
      touched.push(folder);
    }
  return touched;
}

/** The expected plans of the golden cases (`UPDATE_GOLDEN=1` of test/golden/plans.test.ts, as a script). */
async function writeExpectedPlans(root: string): Promise<string[]> {
  const { cases, planCase } = await import('../test/helpers/golden.js');
  const { renderJson, renderText } = await import('../src/plan/index.js');
  const touched: string[] = [];
  for (const name of cases) {
    const { plan } = await planCase(name);
    for (const [file, text] of [
      ['expected.txt', renderText(plan)],
      ['expected.json', renderJson(plan)],
    ] as const) {
      const path = `${PLANS}/${name}/${file}`;
      if (committed(root, path) === text) continue;
      writeFileSync(join(root, path), text);
      touched.push(path);
    }
  }
  return touched;
}

async function run(args: string[]): Promise<number> {
  const check = args.includes('--check');
  const named = args.filter((a) => !a.startsWith('--'));
  const unknown = named.filter((a) => !(PARTS as readonly string[]).includes(a));
  if (unknown.length > 0) {
    console.error(`unknown part ${unknown.join(', ')}: one of ${PARTS.join(', ')}`);
    return 2;
  }
  const parts = named.length > 0 ? (named as Part[]) : PARTS;
  if (check) {
    const stale = await staleFiles(ROOT, parts);
    for (const path of stale) console.error(`stale: ${path}`);
    if (stale.length > 0) console.error('run npm run generate');
    else console.log('every generated file is up to date');
    return stale.length > 0 ? 1 : 0;
  }
  const touched = await writeGenerated(ROOT, parts);
  if (parts.includes('golden')) touched.push(...(await writeExpectedPlans(ROOT)));
  for (const path of touched) console.log(`wrote ${path}`);
  if (touched.length === 0) console.log('every generated file was up to date');
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = await run(process.argv.slice(2));
