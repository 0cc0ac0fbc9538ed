import { createHmac } from 'node:crypto';
import { redactDeep } from '../../secrets/registry.js';
import { what, type Renderer } from '../provider.js';

/** The signature of a body: `sha256=` and the hex HMAC-SHA256 of its exact bytes (Flux's `generic-hmac`). */
export function signature(body: string, key: string): string {
  return `sha256=${createHmac('sha256', key).update(body, 'utf8').digest('hex')}`;
}

/**
 * A generic webhook: the event as JSON (redacted), signed with the provider's key in
 * `X-Signature: sha256=<hex>`, so the receiver can check who sent it and that nothing changed it.
 * The text fields are plain text: the receiver decides how to show them.
 */
export const renderGenericHmac: Renderer = (provider, event) => {
  const json = JSON.stringify(
    redactDeep({
      source: 'docsync',
      type: event.type,
      severity: event.severity,
      org: event.org,
      ...(event.commit ? { commit: event.commit } : {}),
      summary: event.summary,
      message: event.message,
      fingerprint: event.fingerprint,
      details: event.details,
    }),
  );
  return {
    method: 'POST',
    url: provider.address,
    what: what(provider),
    headers: { 'x-signature': signature(json, provider.secret ?? '') },
    json,
  };
};
