import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Daemon } from '../../src/daemon/daemon.js';
import { createMetrics } from '../../src/daemon/metrics.js';
import { startDaemonServer } from '../../src/daemon/server.js';
import { sign } from '../../src/daemon/webhook.js';
import { resolveWebhookSecret } from '../../src/daemon/webhook-secret.js';
import { createLogger } from '../../src/log/logger.js';
import { redact } from '../../src/secrets/registry.js';

async function hookServer(opts: { webhookSecret?: string; webhookInsecure?: boolean }) {
  const triggered: string[] = [];
  const fake = { ready: true, status: {}, trigger: (k: string) => triggered.push(k) } as unknown as Daemon;
  const server = await startDaemonServer(fake, createMetrics(), createLogger('silent'), {
    port: 0,
    host: '127.0.0.1',
    ...opts,
  });
  const post = async (headers: Record<string, string> = {}) =>
    (await fetch(`${server.url}/hooks/git`, { method: 'POST', body: '{}', headers })).status;
  return { server, triggered, post };
}

describe('the webhook requires a secret', () => {
  it('refuses every push when no secret is configured, unless --webhook-insecure', async () => {
    const closed = await hookServer({});
    expect(await closed.post()).toBe(403);
    expect(closed.triggered).toEqual([]);
    await closed.server.close();
    const open = await hookServer({ webhookInsecure: true });
    expect(await open.post()).toBe(202);
    expect(open.triggered).toEqual(['webhook']);
    await open.server.close();
  });

  it('takes the secret from a file, registered as a secret; a signed push is accepted', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docsync-hook-secret-'));
    writeFileSync(join(dir, 'secret'), 'hook-secret-from-file-77\n');
    const secret = await resolveWebhookSecret({ file: join(dir, 'secret') });
    expect(secret).toBe('hook-secret-from-file-77');
    expect(redact('x hook-secret-from-file-77')).toBe('x [redacted]');
    const hooks = await hookServer({ webhookSecret: secret! });
    expect(await hooks.post()).toBe(401);
    expect(await hooks.post({ 'x-hub-signature-256': sign(secret!, '{}') })).toBe(202);
    await hooks.server.close();
    await expect(resolveWebhookSecret({ file: join(dir, 'missing') })).rejects.toThrow(/cannot read/);
  });
});
