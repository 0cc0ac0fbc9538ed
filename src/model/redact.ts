/**
 * Last line of defence for renderers: URLs that carry a secret in their query (share links,
 * signed URLs) and bearer-like tokens are replaced. The model never holds share-link URLs; this
 * guards against a value slipping through a free-text field.
 */
const SECRET_URL =
  /https?:\/\/[^\s"'<>]*[?&](share|token|key|sig|signature|secret|access_token)=[^\s"'<>]*/gi;
const BEARER = /\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/g;

export function redactText(text: string, secrets: readonly string[] = []): string {
  // Each expression only where what it needs is there (`://`, `Bearer`, which no case folding
  // changes): a text plan of megabytes without either is searched twice, not scanned by both
  // expressions (issue 33).
  let out = text;
  if (out.includes('://')) out = out.replace(SECRET_URL, '[redacted-url]');
  if (out.includes('Bearer')) out = out.replace(BEARER, 'Bearer [redacted]');
  for (const secret of secrets)
    if (secret.length >= 4 && out.includes(secret)) out = out.split(secret).join('[redacted]');
  return out;
}
