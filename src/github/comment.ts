import { OutboundError, sendOutbound, type OutboundPolicy } from '../api/outbound.js';
import { DocsyncError } from '../errors.js';

/** The hidden marker that identifies docsync's sticky comment on a pull request. */
export const MARKER = '<!-- docsync-plan -->';
export const GITHUB_COMMENT_LIMIT = 65_536;

export type GitHubTarget = { apiUrl: string; token: string; repository: string; pr: number };

export class GitHubError extends DocsyncError<'github'> {
  constructor(
    readonly status: number,
    message: string,
    options?: { cause?: unknown },
  ) {
    super('github', message, options);
  }
}

/** Tests shorten the policy's deadline and backoff. */
export const githubPolicy: OutboundPolicy = {};

async function gh(
  target: GitHubTarget,
  method: 'GET' | 'POST' | 'PATCH',
  path: string,
  body?: unknown,
): Promise<unknown> {
  const route = path.replace(/\?.*$/, '');
  try {
    const res = await sendOutbound(
      {
        method,
        url: `${target.apiUrl.replace(/\/+$/, '')}${path}`,
        what: `GitHub ${method} ${route}`,
        headers: {
          authorization: `Bearer ${target.token}`,
          accept: 'application/vnd.github+json',
          'x-github-api-version': '2022-11-28',
          'user-agent': 'docsync',
        },
        body,
        create: method === 'POST',
      },
      { ...githubPolicy, secrets: [target.token] },
    );
    return res.text ? (JSON.parse(res.text) as unknown) : undefined;
  } catch (error) {
    if (error instanceof OutboundError)
      throw new GitHubError(error.status ?? 0, error.message, { cause: error });
    throw error;
  }
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
