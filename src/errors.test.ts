import { describe, expect, it } from 'vitest';
import { AnswerTooLargeError, DeadlineError } from './api/bounded-body.js';
import { ApiError, codeForStatus } from './api/errors.js';
import { TokenError } from './api/token.js';
import { WriteGateClosedError } from './api/write-gate.js';
import { EtcdError } from './coord/etcd-client.js';
import { CertificateChangedError } from './apply/certificates.js';
import { LockError } from './apply/lock.js';
import { UnresolvedRefError } from './apply/resolve.js';
import { BodyError } from './daemon/webhook.js';
import { UiAuthError } from './daemon/ui-auth.js';
import { WebhookSecretError } from './daemon/webhook-secret.js';
import { DocsyncError, ERROR_CODES, errorCode, type ErrorCode } from './errors.js';
import { GitHubError } from './github/comment.js';
import { IndirectValueError } from './secrets/indirect.js';
import { GitError } from './source/git-process.js';
import { CheckoutTooLargeError } from './source/git-source.js';

describe('error codes', () => {
  it('are unique and kebab-case', () => {
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
    for (const code of ERROR_CODES) expect(code).toMatch(/^[a-z]+(-[a-z]+)*$/);
  });

  // One row per error class that crosses a module boundary: its code is part of the outside
  // contract (scripts match on it), so a rename fails here.
  const cases: [string, () => DocsyncError, ErrorCode][] = [
    ['GitError', () => new GitError('git fetch failed'), 'git'],
    ['CheckoutTooLargeError', () => new CheckoutTooLargeError('objects', 10), 'checkout-too-large'],
    ['BodyError 413', () => new BodyError(413, 'body too large'), 'body-too-large'],
    ['BodyError 408', () => new BodyError(408, 'body too slow'), 'body-timeout'],
    ['WebhookSecretError', () => new WebhookSecretError('empty'), 'webhook-secret'],
    ['UiAuthError', () => new UiAuthError('empty'), 'ui-auth'],
    ['AnswerTooLargeError', () => new AnswerTooLargeError(10), 'answer-too-large'],
    ['DeadlineError', () => new DeadlineError(10), 'deadline'],
    ['TokenError', () => new TokenError('no token'), 'token-missing'],
    ['TokenError file', () => new TokenError('not a file', { code: 'token-file' }), 'token-file'],
    [
      'ApiError',
      () => new ApiError({ code: 'conflict', method: 'POST', route: '/orgs/{org}/sites', sent: true }),
      'conflict',
    ],
    ['CertificateChangedError', () => new CertificateChangedError('changed'), 'certificate-changed'],
    ['LockError', () => new LockError('held'), 'locked'],
    ['UnresolvedRefError', () => new UnresolvedRefError('no id'), 'unresolved-ref'],
    ['IndirectValueError', () => new IndirectValueError('env-unset', 'unset'), 'env-unset'],
    ['GitHubError', () => new GitHubError(502, 'GitHub answered 502'), 'github'],
    ['EtcdError', () => new EtcdError('etcd /v3/kv/txn: 503'), 'etcd'],
    ['WriteGateClosedError', () => new WriteGateClosedError('lease not held'), 'not-owner'],
  ];

  it.each(cases)('%s extends DocsyncError with a registered, stable code', (name, make, code) => {
    const error = make();
    expect(error).toBeInstanceOf(DocsyncError);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe(name.split(' ')[0]);
    expect(error.code).toBe(code);
    expect(errorCode(error)).toBe(code);
    expect(ERROR_CODES).toContain(error.code);
  });

  it('every status an API call can fail with maps to a registered code', () => {
    for (const status of [400, 401, 403, 404, 409, 410, 422, 429, 500, 502, 503])
      expect(ERROR_CODES).toContain(codeForStatus(status));
  });

  it('keeps the cause and details, and a plain error has no code', () => {
    const cause = new Error('socket hang up');
    const error = new DocsyncError('network', 'cannot reach the API', { cause, details: { attempt: 3 } });
    expect(error.cause).toBe(cause);
    expect(error.details).toEqual({ attempt: 3 });
    expect(errorCode(new Error('plain'))).toBeUndefined();
    expect(errorCode('text')).toBeUndefined();
  });
});
