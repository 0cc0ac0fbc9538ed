import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { OUTBOUND_DEFAULTS, OutboundError, sendOutbound } from '../../src/api/outbound.js';
import { deriveEvents } from '../../src/notify/events.js';
import { notifyPolicy, sendEvent } from '../../src/notify/notifier.js';
import { notifyUrlProvider } from '../../src/notify/settings.js';
import { findComment, GitHubError, githubPolicy, upsertComment } from '../../src/github/comment.js';
import { githubMock } from '../helpers/github-mock.js';

const TOKEN = 'ghs_outboundsecret98765';
const fast = { backoffBaseMs: 1, backoffCapMs: 5, timeoutMs: 400 };
let gh: Awaited<ReturnType<typeof githubMock>>;

beforeAll(() => {
  Object.assign(githubPolicy, fast);
  Object.assign(notifyPolicy, fast);
});
afterAll(() => {
  for (const key of Object.keys(fast)) {
    delete (githubPolicy as Record<string, unknown>)[key];
    delete (notifyPolicy as Record<string, unknown>)[key];
  }
});
afterEach(async () => {
  await gh?.close();
});

// The login is given: the faults below are meant for the comment calls, not for `GET /user`.
const target = () => ({
  apiUrl: gh.url,
  token: TOKEN,
  repository: 'acme/docs',
  pr: 7,
  login: 'github-actions[bot]',
});

/** What `--notify-url` sends when a drift check cannot read. */
async function notifyDriftError(url: string, error: string): Promise<void> {
  const [event] = deriveEvents(undefined, {
    org: 'org_t',
    kind: 'drift-error',
    error,
    code: 'server',
  }).events;
  await sendEvent(notifyUrlProvider(url), event!);
}

/** The error a promise rejects with (fails the test when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<Error> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error as Error,
  );
  if (!outcome) throw new Error('expected the call to fail, it succeeded');
  return outcome;
}

describe('outbound HTTP (PR comments, notifications) goes through the HTTP policy', () => {
  it('a 502 then a 200 is retried: the comment is found on the second attempt', async () => {
    gh = await githubMock(TOKEN);
    gh.faults.push({ status: 502, body: { message: 'bad gateway' } });
    await upsertComment(target(), 'plan');
    const created = await findComment(target());
    expect(created?.body).toContain('plan');

    gh.calls.length = 0;
    gh.faults.push({ status: 502 }, { status: 503 });
    const result = await upsertComment(target(), 'second plan');
    expect(result).toEqual({ action: 'updated', id: created!.id });
    expect(gh.calls.filter((c) => c.startsWith('GET'))).toHaveLength(3);
    expect(gh.comments.find((c) => c.id === created!.id)?.body).toContain('second plan');
  });

  it('a creating POST that got a 502 is not sent twice (a lost answer must not comment twice)', async () => {
    gh = await githubMock(TOKEN);
    gh.faults.push({ status: 200, body: [] }, { status: 502 });
    const error = await rejection(upsertComment(target(), 'plan'));
    expect(error).toBeInstanceOf(GitHubError);
    expect((error as GitHubError).status).toBe(502);
    expect(gh.calls.filter((c) => c.startsWith('POST'))).toHaveLength(1);
  });

  it('a body that trickles forever hits the total deadline, on every attempt', async () => {
    gh = await githubMock(TOKEN);
    gh.faults.push(...Array.from({ length: OUTBOUND_DEFAULTS.maxAttempts }, () => ({ trickleMs: 20 })));
    const started = Date.now();
    const error = await rejection(findComment(target()));
    expect(error).toBeInstanceOf(GitHubError);
    expect(error.message).toContain('no complete answer within 400 ms');
    expect(((error as GitHubError).cause as OutboundError).reason).toBe('timeout');
    expect(gh.calls).toHaveLength(OUTBOUND_DEFAULTS.maxAttempts);
    // Four deadlines of 400 ms and short backoffs, far below the default 30 s.
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('a token the server echoes in its error never shows in the message', async () => {
    gh = await githubMock(TOKEN);
    const echo = { status: 500, body: { message: `token ${TOKEN} is not allowed here` } };
    gh.faults.push(echo, echo, echo, echo);
    const error = await rejection(findComment(target()));
    expect(error.message).toContain('answered 500');
    expect(error.message).toContain('is not allowed here');
    expect(error.message).not.toContain(TOKEN);
    expect(JSON.stringify({ ...error, message: error.message })).not.toContain(TOKEN);
  });

  it('a 401 is not retried and names the route, not the query', async () => {
    gh = await githubMock('another-token-entirely');
    const error = await rejection(findComment(target()));
    expect(error.message).toBe('GitHub GET /repos/acme/docs/issues/7/comments answered 401: Bad credentials');
    expect(gh.calls).toHaveLength(1);
  });

  it('notifications retry a 503 and never name the webhook URL (it carries its key)', async () => {
    gh = await githubMock(TOKEN);
    // The mock answers 404 to any path it does not know, after the faults it was given.
    const url = `${gh.url}/services/T000/B000/slackkeyabcdef`;
    gh.faults.push({ status: 503 }, { status: 200, body: { ok: true } });
    await notifyDriftError(url, 'the API is down');
    expect(gh.calls).toEqual([
      'POST /services/T000/B000/slackkeyabcdef',
      'POST /services/T000/B000/slackkeyabcdef',
    ]);

    gh.faults.push({ status: 500, body: { message: `no route for ${url}` } });
    gh.faults.push({ status: 500 }, { status: 500 }, { status: 500 });
    const error = await rejection(notifyDriftError(url, 'the API is down'));
    expect(error).toBeInstanceOf(OutboundError);
    expect((error as OutboundError).code).toBe('outbound-failed');
    expect(error.message).toContain('notification notify-url (slack) answered 500');
    expect(error.message).not.toContain('slackkey');
  });

  it('a server that is not there is a network failure, retried, then reported', async () => {
    gh = await githubMock(TOKEN);
    const url = `${gh.url}/x`;
    await gh.close();
    const error = await rejection(
      sendOutbound({ method: 'GET', url, what: 'probe' }, { ...fast, maxAttempts: 2 }),
    );
    expect(error).toBeInstanceOf(OutboundError);
    expect((error as OutboundError).reason).toBe('network');
    expect((error as OutboundError).sent).toBe(false);
    expect(error.message).toMatch(/^probe: ECONNREFUSED/);
  });
});
