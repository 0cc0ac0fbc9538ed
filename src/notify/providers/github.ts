import { oneLine } from '../../plan/markdown-escape.js';
import type { NotificationEvent } from '../events.js';
import { what, type Renderer } from '../provider.js';

export const GITHUB_API_URL = 'https://api.github.com';
/** GitHub keeps at most this much of a status's description. */
export const DESCRIPTION_LIMIT = 140;

type State = 'success' | 'failure' | 'error' | 'pending';

/** A commit's state as the event leaves it: corrected drift is pending, a check that cannot read is an error. */
export function stateOf(event: NotificationEvent): State {
  switch (event.type) {
    case 'applied':
    case 'recovered':
      return 'success';
    case 'drift':
      return event.severity === 'info' ? 'pending' : 'failure';
    case 'drift-error':
      return 'error';
    default:
      return 'failure';
  }
}

/** A full commit id (SHA-1 or SHA-256 object format), never a branch or an abbreviation. */
const COMMIT = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * A GitHub commit status on the config repository's commit that the run used: state by event,
 * context `docsync/<org>`, the summary as description (one line, redacted, cut to GitHub's
 * limit). An event without a commit (a folder source) has nothing to mark.
 */
export const renderGitHub: Renderer = (provider, event) => {
  if (!event.commit || !COMMIT.test(event.commit)) return undefined;
  const base = (provider.apiUrl ?? GITHUB_API_URL).replace(/\/+$/, '');
  const description = oneLine(event.summary);
  return {
    method: 'POST',
    url: `${base}/repos/${provider.address}/statuses/${event.commit}`,
    what: `${what(provider)} POST /repos/${provider.address}/statuses/{sha}`,
    headers: {
      authorization: `Bearer ${provider.secret ?? ''}`,
      accept: 'application/vnd.github+json',
      'x-github-api-version': '2022-11-28',
      'user-agent': 'docsync',
    },
    body: {
      state: stateOf(event),
      description:
        description.length > DESCRIPTION_LIMIT
          ? `${description.slice(0, DESCRIPTION_LIMIT - 1)}…`
          : description,
      context: `docsync/${oneLine(event.org)}`,
    },
  };
};
