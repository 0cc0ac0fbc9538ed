import { request } from 'undici';
import { readBoundedText } from '../api/bounded-body.js';

/** The hidden marker that identifies docsync's sticky comment on a pull request. */
export const MARKER = '<!-- docsync-plan -->';
export const GITHUB_COMMENT_LIMIT = 65_536;

export type GitHubTarget = { apiUrl: string; token: string; repository: string; pr: number };

export class GitHubError extends Error {
  readonly code = 'github';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function gh(target: GitHubTarget, method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await request(`${target.apiUrl.replace(/\/+$/, '')}${path}`, {
    method: method as 'GET',
    headers: {
      authorization: `Bearer ${target.token}`,
      accept: 'application/vnd.github+json',
      'x-github-api-version': '2022-11-28',
      'user-agent': 'docsync',
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    headersTimeout: 30_000,
    bodyTimeout: 30_000,
    signal: AbortSignal.timeout(60_000),
  });
  const text = await readBoundedText(res, 16 * 1024 * 1024);
  if (res.statusCode >= 300)
    throw new GitHubError(
      res.statusCode,
      `GitHub ${method} ${path.replace(/\?.*$/, '')} answered ${res.statusCode}`,
    );
  return text ? (JSON.parse(text) as unknown) : undefined;
}

type Comment = { id: number; body?: string };

/** Find docsync's previous comment (by its marker), walking every page of the PR's comments. */
export async function findComment(target: GitHubTarget): Promise<Comment | undefined> {
  for (let page = 1; page < 100; page += 1) {
    const list = (await gh(
      target,
      'GET',
      `/repos/${target.repository}/issues/${target.pr}/comments?per_page=100&page=${page}`,
    )) as Comment[];
    const found = list.find((c) => c.body?.includes(MARKER));
    if (found) return found;
    if (list.length < 100) return undefined;
  }
  return undefined;
}

/** Create the sticky comment, or edit the previous one. Returns what was done. */
export async function upsertComment(
  target: GitHubTarget,
  body: string,
): Promise<{ action: 'created' | 'updated'; id: number }> {
  const text = body.includes(MARKER) ? body : `${MARKER}\n${body}`;
  const existing = await findComment(target);
  if (existing) {
    await gh(target, 'PATCH', `/repos/${target.repository}/issues/comments/${existing.id}`, { body: text });
    return { action: 'updated', id: existing.id };
  }
  const created = (await gh(target, 'POST', `/repos/${target.repository}/issues/${target.pr}/comments`, {
    body: text,
  })) as Comment;
  return { action: 'created', id: created.id };
}
