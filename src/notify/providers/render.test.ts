import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HOSTILE, injections, textInjections, tokensOf } from '../../../test/helpers/hostile-markdown.js';
import { registerSecret } from '../../secrets/registry.js';
import { deriveEvents, EVENT_TYPES, type NotificationEvent, type Observation } from '../events.js';
import type { NotificationProvider } from '../provider.js';
import { renderGenericHmac, signature } from './generic-hmac.js';
import { DESCRIPTION_LIMIT, renderGitHub, stateOf } from './github.js';
import { renderMsTeams } from './msteams.js';
import { renderSlack } from './slack.js';

const SECRET = 'render-test-s3cr3t_value';
registerSecret(SECRET);
const COMMIT = '0123456789abcdef0123456789abcdef01234567';
const counts = { create: 1, update: 0, delete: 0, move: 0 };
const provider = (type: NotificationProvider['type'], extra: Partial<NotificationProvider> = {}) =>
  ({
    name: `p-${type}`,
    type,
    address: type === 'github' ? 'acme/docs-config' : 'https://hooks.example/x',
    severity: 'info',
    events: EVENT_TYPES,
    ...extra,
  }) as NotificationProvider;

/** One event of each type, about `data` (an organization id and an error text an attacker chose). */
function eventsAbout(data: string): NotificationEvent[] {
  const org = `org ${data}`;
  const observations: [Observation, 'ok' | 'drifted' | 'failing'][] = [
    [{ org, commit: COMMIT, kind: 'applied', runId: 'r', counts, applied: 1 }, 'ok'],
    [{ org, commit: COMMIT, kind: 'apply-failed', error: `failed: ${data} ${SECRET}`, code: 'server' }, 'ok'],
    [{ org, commit: COMMIT, kind: 'refused', reason: `refused ${data}` }, 'ok'],
    [{ org, commit: COMMIT, kind: 'drift', checksum: 'c', counts, changes: [], healing: false }, 'ok'],
    [{ org, commit: COMMIT, kind: 'drift-error', error: `read ${data} ${SECRET}`, code: 'server' }, 'ok'],
    [{ org, commit: COMMIT, kind: 'in-sync' }, 'failing'],
  ];
  return observations.flatMap(([o, prev]) => deriveEvents(prev, o).events);
}

const cases = HOSTILE.filter((h) => h.trim() !== '').map((h) => [JSON.stringify(h).slice(0, 40), h] as const);

describe('every provider renders hostile data as text, and no secret', () => {
  it.each(cases)('Slack: %s', (_name, data) => {
    for (const event of eventsAbout(data)) {
      const req = renderSlack(provider('slack'), event)!;
      const body = req.body as { text: string };
      // mrkdwn's control characters are `<`, `>` and `&`: no <!channel>, no <url|link>.
      expect(body.text).not.toMatch(/[<>]/);
      expect(JSON.stringify(body)).not.toContain(SECRET);
    }
  });

  it.each(cases)('Teams: %s', (_name, data) => {
    for (const event of eventsAbout(data)) {
      const body = renderMsTeams(provider('msteams'), event)!.body as {
        attachments: {
          contentType: string;
          content: { body: { text?: string; facts?: { value: string }[] }[] };
        }[];
      };
      const card = body.attachments[0]!;
      expect(card.contentType).toBe('application/vnd.microsoft.card.adaptive');
      const texts = card.content.body.flatMap((b) => [b.text ?? '', ...(b.facts ?? []).map((f) => f.value)]);
      for (const text of texts) {
        expect(injections(text)).toEqual([]);
        expect(tokensOf(text).filter((t) => t.type.startsWith('heading') || t.type.includes('list'))).toEqual(
          [],
        );
        expect(text).not.toContain('&#8203;');
      }
      expect(JSON.stringify(body)).not.toContain(SECRET);
    }
  });

  it.each(cases)('generic webhook: %s', (_name, data) => {
    for (const event of eventsAbout(data)) {
      const req = renderGenericHmac(provider('generic-hmac', { secret: 'hmac-key' }), event)!;
      const expected = `sha256=${createHmac('sha256', 'hmac-key').update(req.json!).digest('hex')}`;
      expect(req.headers?.['x-signature']).toBe(expected);
      expect(req.json).not.toContain(SECRET);
      expect(JSON.parse(req.json!)).toMatchObject({
        source: 'docsync',
        type: event.type,
        org: expect.any(String),
      });
    }
  });

  it.each(cases)('GitHub status: %s', (_name, data) => {
    for (const event of eventsAbout(data)) {
      const req = renderGitHub(provider('github', { secret: 'ghp_token' }), event)!;
      const body = req.body as { state: string; description: string; context: string };
      expect(req.url).toBe(`https://api.github.com/repos/acme/docs-config/statuses/${COMMIT}`);
      expect(body.description.length).toBeLessThanOrEqual(DESCRIPTION_LIMIT);
      expect(textInjections(body.description)).toEqual([]);
      expect(body.context).toMatch(/^docsync\/org /);
      expect(JSON.stringify(body)).not.toContain(SECRET);
      expect(req.what).not.toContain('ghp_token');
    }
  });
});

describe('provider specifics', () => {
  it('Slack keeps the --notify-url fields: text, organizations, summary, checksum, changes, error', () => {
    const [event] = deriveEvents('ok', {
      org: 'org_a',
      kind: 'drift',
      checksum: 'abc',
      counts,
      changes: [{ action: 'create', kind: 'team', address: 'org_a/teams/T' }],
      healing: false,
    }).events;
    expect(renderSlack(provider('slack'), event!)!.body).toEqual({
      text: 'docsync drift: live state differs from the configuration: 1 to create, 0 to update, 0 to delete, 0 to move (org_a)',
      event: 'drift',
      severity: 'error',
      organizations: ['org_a'],
      summary: counts,
      checksum: 'abc',
      changes: [{ action: 'create', kind: 'team', address: 'org_a/teams/T' }],
    });
  });

  it.each<[string, Observation, 'ok' | 'drifted' | 'failing', string]>([
    ['applied', { org: 'o', kind: 'applied', runId: 'r', applied: 1 }, 'ok', 'success'],
    ['recovered', { org: 'o', kind: 'in-sync' }, 'failing', 'success'],
    [
      'drift self-heal corrects',
      { org: 'o', kind: 'drift', checksum: 'c', counts, changes: [], healing: true },
      'ok',
      'pending',
    ],
    [
      'drift reported only',
      { org: 'o', kind: 'drift', checksum: 'c', counts, changes: [], healing: false },
      'ok',
      'failure',
    ],
    ['apply failed', { org: 'o', kind: 'apply-failed', error: 'x', code: 'server' }, 'ok', 'failure'],
    ['refused', { org: 'o', kind: 'refused', reason: 'x' }, 'ok', 'failure'],
    ['drift error', { org: 'o', kind: 'drift-error', error: 'x', code: 'server' }, 'ok', 'error'],
  ])('GitHub state of %s is %s', (_name, o, prev, state) => {
    expect(stateOf(deriveEvents(prev, o).events[0]!)).toBe(state);
  });

  it('GitHub: no commit (a folder source), nothing to send; an Enterprise API URL is used as given', () => {
    const [event] = deriveEvents('ok', { org: 'o', kind: 'applied', runId: 'r', applied: 1 }).events;
    expect(renderGitHub(provider('github'), event!)).toBeUndefined();
    const withCommit = { ...event!, commit: COMMIT };
    const req = renderGitHub(provider('github', { apiUrl: 'https://ghe.example/api/v3/' }), withCommit)!;
    expect(req.url).toBe(`https://ghe.example/api/v3/repos/acme/docs-config/statuses/${COMMIT}`);
    expect(renderGitHub(provider('github'), { ...event!, commit: 'main' })).toBeUndefined();
  });

  it('the signature is over the exact bytes sent', () => {
    expect(signature('{"a":1}', 'k')).toBe(
      `sha256=${createHmac('sha256', 'k').update('{"a":1}').digest('hex')}`,
    );
  });
});
