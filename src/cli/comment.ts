import { readFile } from 'node:fs/promises';
import { GITHUB_COMMENT_LIMIT, MARKER, upsertComment } from '../github/comment.js';
import { redact, registerSecret } from '../secrets/registry.js';
import type { LiveState } from '../reconcile/index.js';
import { loadConfig } from '../config/load.js';
import { markAgainstBase, renderMarkdown, type MarkdownOptions, type Plan } from '../plan/index.js';
import { touchesStructure } from '../plan/structure-node.js';
import { env, makeApi, type CommonOptions } from './context.js';
import { err, out } from './output.js';
import { sitePreviews, type SitePreview } from '../pipeline/preview.js';
import { loadOrReport, planWithProgress } from './plan.js';

export type CommentOptions = CommonOptions & {
  pr?: number;
  repository?: string;
  githubApiUrl: string;
  baseConfig?: string;
  skipNoChanges: boolean;
  artifactUrl?: string;
  planFile?: string;
};

async function prNumber(flag: number | undefined): Promise<number | undefined> {
  if (flag) return flag;
  const file = env('GITHUB_EVENT_PATH');
  if (!file) return undefined;
  const event = JSON.parse(await readFile(file, 'utf8')) as {
    pull_request?: { number?: number };
    number?: number;
  };
  return event.pull_request?.number ?? event.number;
}

/**
 * A saved plan holds no live state, which the site navigation (now and after) is drawn on: read it
 * when the plan touches site structure. Best effort: without it the comment still posts the plan.
 */
async function liveForNavigation(opts: CommentOptions, plan: Plan): Promise<LiveState | undefined> {
  if (!touchesStructure(plan.changes)) return undefined;
  const loaded = await loadConfig(opts.config);
  try {
    if (!loaded.desired) throw new Error(`the config in ${opts.config} does not load`);
    return (await planWithProgress(opts, loaded.desired)).live;
  } catch (error) {
    err(`note: site navigation left out of the comment (${(error as Error).message})`);
    return undefined;
  }
}

/** The preview links of the sites the plan changes (staged structure, issue 30); best effort. */
async function previewsFor(opts: CommentOptions, plan: Plan, live: LiveState): Promise<SitePreview[]> {
  const api = makeApi(opts);
  try {
    const { previews, notes } = await sitePreviews(api, plan, live);
    for (const note of notes) err(`note: ${note}`);
    return previews;
  } finally {
    await api.close();
  }
}

/** The sticky comment's body: the markdown plan (with the guards' verdict), under the marker. */
export function commentBody(
  plan: Plan,
  opts: {
    markOf?: MarkdownOptions['markOf'];
    live?: LiveState;
    artifactUrl?: string | undefined;
    previews?: MarkdownOptions['previews'];
  } = {},
): string {
  if (plan.changes.length === 0 && plan.errors.length === 0)
    return `${MARKER}\n### docsync plan\n\n**No changes.** Live state matches the configuration.\n`;
  return `${MARKER}\n${renderMarkdown(plan, {
    limit: GITHUB_COMMENT_LIMIT - MARKER.length - 200,
    ...(opts.markOf ? { markOf: opts.markOf } : {}),
    ...(opts.live ? { live: opts.live } : {}),
    ...(opts.previews ? { previews: opts.previews } : {}),
    artifactHint: opts.artifactUrl
      ? `The full plan is in the workflow artifact: ${opts.artifactUrl}`
      : "The full plan is in the workflow run's artifacts.",
  })}`;
}

/** `docsync comment`: post the plan on a pull request as one sticky comment. */
export async function commentCommand(opts: CommentOptions): Promise<number> {
  const token = env('GITHUB_TOKEN');
  registerSecret(token);
  const repository = opts.repository ?? env('GITHUB_REPOSITORY');
  const pr = await prNumber(opts.pr);
  if (!token || !repository || !pr) {
    err(
      'error: docsync comment needs GITHUB_TOKEN, GITHUB_REPOSITORY (or --repository) and a pull request number (--pr or GITHUB_EVENT_PATH)',
    );
    return 1;
  }
  let plan: Plan;
  let live: LiveState | undefined;
  if (opts.planFile) {
    plan = JSON.parse(await readFile(opts.planFile, 'utf8')) as Plan;
    live = await liveForNavigation(opts, plan);
  } else {
    const desired = await loadOrReport(opts.config);
    if (!desired) return 1;
    ({ plan, live } = await planWithProgress(opts, desired));
  }
  let markOf: ((c: Plan['changes'][number]) => string) | undefined;
  if (opts.baseConfig) {
    const base = await loadOrReport(opts.baseConfig);
    if (base) markOf = markAgainstBase(plan, (await planWithProgress(opts, base)).plan);
  }
  if (plan.changes.length === 0 && opts.skipNoChanges) {
    out('no changes; no comment posted (--skip-no-changes)');
    return 0;
  }
  const previews = live ? await previewsFor(opts, plan, live) : [];
  const body = commentBody(plan, { markOf, live, artifactUrl: opts.artifactUrl, previews });
  const result = await upsertComment({ apiUrl: opts.githubApiUrl, token, repository, pr }, redact(body));
  out(`${result.action} comment ${result.id} on ${repository}#${pr}`);
  return plan.errors.length > 0 ? 1 : 0;
}
