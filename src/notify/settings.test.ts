import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { redact } from '../secrets/registry.js';
import { loadNotifications, NotificationsError } from './settings.js';

const dir = mkdtempSync(join(tmpdir(), 'docsync-notifications-'));
const SLACK_URL = 'https://hooks.slack.com/services/T0/B0/settingstestkey123';
writeFileSync(join(dir, 'slack-url'), `${SLACK_URL}\n`);
writeFileSync(join(dir, 'hmac'), 'settings-hmac-key-456\n');
writeFileSync(join(dir, 'token'), 'ghp_settingstoken789\n');
writeFileSync(join(dir, 'empty'), '\n');
writeFileSync(join(dir, 'not-a-url'), 'settings-not-a-url-content\n');

function file(yaml: string): string {
  const path = join(dir, `n-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(path, yaml);
  return path;
}

async function failure(yaml: string): Promise<string> {
  const path = file(yaml);
  const error = await loadNotifications(path).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(NotificationsError);
  return (error as Error).message.replaceAll(path, 'FILE');
}

describe('the notifications file', () => {
  it('reads every provider type, secrets from files (registered for redaction), defaults filled in', async () => {
    const providers = await loadNotifications(
      file(`providers:
  - name: ops
    type: slack
    addressFile: slack-url
    events: [drift, drift-error, recovered]
  - name: teams
    type: msteams
    addressFile: ${join(dir, 'slack-url')}
    severity: error
  - name: audit
    type: generic-hmac
    address: https://audit.example/docsync
    secretFile: hmac
    orgs: [org_a]
  - name: commits
    type: github
    address: https://github.com/acme/docs-config.git
    secretFile: token
`),
    );
    expect(providers).toEqual([
      {
        name: 'ops',
        type: 'slack',
        address: SLACK_URL,
        severity: 'info',
        events: ['drift', 'drift-error', 'recovered'],
      },
      expect.objectContaining({ name: 'teams', type: 'msteams', address: SLACK_URL, severity: 'error' }),
      expect.objectContaining({ name: 'audit', secret: 'settings-hmac-key-456', orgs: ['org_a'] }),
      expect.objectContaining({
        name: 'commits',
        address: 'acme/docs-config',
        secret: 'ghp_settingstoken789',
      }),
    ]);
    expect(providers[1]!.events).toHaveLength(6);
    expect(redact(`x ${SLACK_URL} settings-hmac-key-456 ghp_settingstoken789`)).not.toMatch(
      /settingstestkey|hmac-key-456|settingstoken/,
    );
  });

  it.each<[string, string, string]>([
    [
      'an unknown key',
      'providers:\n  - name: a\n    type: slack\n    adressFile: x\n',
      'FILE:4:5: error[unknown-key] providers[0].adressFile: unknown key "adressFile"; did you mean "addressFile"?',
    ],
    [
      'an unknown type',
      'providers:\n  - name: a\n    type: pagerduty\n    addressFile: x\n',
      'FILE:3:11: error[invalid-value] providers[0].type: must be one of "slack", "msteams", "generic-hmac", "github"',
    ],
    [
      'an unknown event',
      'providers:\n  - name: a\n    type: slack\n    addressFile: slack-url\n    events: [drift, synced]\n',
      'FILE:5:21: error[invalid-value] providers[0].events[1]: must be one of',
    ],
    [
      'a Slack URL written in the file',
      'providers:\n  - name: a\n    type: slack\n    address: https://hooks.slack.com/x\n',
      'FILE:4:14: error[invalid-value] providers[0].address: a slack webhook URL is a secret: put it in a file and name it with addressFile',
    ],
    [
      'an HMAC webhook without its key',
      'providers:\n  - name: a\n    type: generic-hmac\n    address: https://x.example\n',
      'FILE:2:5: error[invalid-value] providers[0].name: a generic-hmac provider needs secretFile (the HMAC key)',
    ],
    [
      'a github provider with a bad repository',
      'providers:\n  - name: a\n    type: github\n    address: not a repo\n    secretFile: token\n',
      'FILE:4:14: error[invalid-value] providers[0].address: expected owner/repo or https://github.com/owner/repo',
    ],
    [
      'a github repository of dots',
      'providers:\n  - name: a\n    type: github\n    address: a/..\n    secretFile: token\n',
      'providers[0].address: expected owner/repo',
    ],
    [
      'a secret file that is missing',
      'providers:\n  - name: a\n    type: github\n    address: a/b\n    secretFile: nope\n',
      'FILE:5:17: error[invalid-value] providers[0].secretFile: ',
    ],
    [
      'an empty secret file',
      'providers:\n  - name: a\n    type: github\n    address: a/b\n    secretFile: empty\n',
      'empty is empty',
    ],
    [
      'two providers of one name',
      'providers:\n  - name: a\n    type: github\n    address: a/b\n    secretFile: token\n  - name: a\n    type: github\n    address: a/c\n    secretFile: token\n',
      'FILE:6:11: error[duplicate] providers[1].name: a provider named "a" is given twice',
    ],
    ['no providers', 'providers: []\n', 'providers: must have at least 1 item(s)'],
  ])('%s is a located error', async (_name, yaml, expected) => {
    const message = await failure(yaml);
    expect(message).toMatch(
      /^the notifications file is invalid \(--notifications, DOCSYNC_NOTIFICATIONS\):\n/,
    );
    expect(message).toContain(expected);
  });

  it('never echoes what a file holds', async () => {
    const message = await failure('providers:\n  - name: a\n    type: slack\n    addressFile: not-a-url\n');
    expect(message).toContain('providers[0].addressFile: not-a-url does not hold an http(s) URL');
    expect(message).not.toContain('settings-not-a-url-content');
  });

  it('a file that is not there names the setting', async () => {
    const error = await loadNotifications(join(dir, 'missing.yaml')).catch((e: unknown) => e as Error);
    expect((error as Error).message).toMatch(
      /notifications file .*missing\.yaml \(--notifications, DOCSYNC_NOTIFICATIONS\) cannot be opened \(ENOENT\)/,
    );
  });
});
