import { OutboundError, sendOutbound, type OutboundPolicy } from '../api/outbound.js';
import { DocsyncError } from '../errors.js';

/** The hidden marker that identifies docsync's sticky comment on a pull request. */
export const MARKER = '<!-- docsync-plan -->';
export const GITHUB_COMMENT_LIMIT = 65_536;

export type GitHubTarget = {
  apiUrl: string;
  token: string;
  repository: string;
  pr: number;
  /** The token's own login, when known; otherwise asked of `GET /user` (see `tokenLogin`). */
  login?: string;
};

/** Who the Actions token (`GITHUB_TOKEN`) writes as; `GET /user` refuses it (403). */
export const ACTIONS_BOT = 'github-actions[bot]';

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

type Comment = { id: number; body?: string; user?: { login?: string } | null };

/**
 * The login the token writes as: `GET /user` for a personal or OAuth token; an installation token
 * (the Actions `GITHUB_TOKEN`) is refused there with 403 and writes as `github-actions[bot]`.
 */
export async function tokenLogin(target: GitHubTarget): Promise<string> {
  if (target.login) return target.login;
  try {
    const user = (await gh(target, 'GET', '/user')) as { login?: unknown } | undefined;
    if (typeof user?.login === 'string' && user.login !== '') return user.login;
    throw new GitHubError(0, 'GitHub GET /user answered without a login');
  } catch (error) {
    if (error instanceof GitHubError && error.status === 403) return ACTIONS_BOT;
    throw error;
  }
}

/**
 * Find docsync's previous comment, walking every page of the PR's comments: one that starts with
 * the marker AND was written by the token's own identity. Anyone can paste the marker into a
 * comment; taking theirs over would put docsync's plan under their name and let them hide it.
 */
export async function findComment(target: GitHubTarget): Promise<Comment | undefined> {
  const login = await tokenLogin(target);
  for (let page = 1; page < 100; page += 1) {
    const list = (await gh(
      target,
      'GET',
      `/repos/${target.repository}/issues/${target.pr}/comments?per_page=100&page=${page}`,
    )) as Comment[];
    const found = list.find((c) => c.body?.startsWith(MARKER) && c.user?.login === login);
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
  const text = body.startsWith(MARKER) ? body : `${MARKER}\n${body}`;
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
