import { redactText } from '../model/redact.js';

/**
 * The one registry of every secret docsync holds: the API token, the webhook secret, credentials
 * in a repository URL and every value read through `file:`/`env:`. Everything that leaves the
 * process (logs, human output, /status, /metrics, drift reports, notifications, PR comments,
 * plans) passes `redact` or `redactDeep`.
 */
const secrets = new Set<string>();
/** `secrets` longest first, made when first asked after a change (a plan redacts 100,000 strings). */
let longestFirst: readonly string[] | undefined;

/** Shorter values are not registered: replacing them would mangle ordinary text. */
export const MIN_SECRET_LENGTH = 4;

/** Values known not to be secret (the demo's emulator token, printed so commands can be pasted). */
const notSecret = new Set<string>();

export function registerSecret(secret: string | undefined): void {
  if (!secret) return;
  for (const value of new Set([secret, secret.trim()]))
    if (value.length >= MIN_SECRET_LENGTH && !notSecret.has(value)) {
      secrets.add(value);
      longestFirst = undefined;
    }
}

/** Only for a value that is public by construction, like the demo's `dev-token`: never redacted. */
export function declareNotSecret(value: string): void {
  notSecret.add(value);
  secrets.delete(value);
  longestFirst = undefined;
}

/** The registered secrets, longest first (so a secret containing another is replaced whole). */
export function registeredSecrets(): readonly string[] {
  return (longestFirst ??= [...secrets].sort((a, b) => b.length - a.length));
}

/** Text with every registered secret, bearer token and secret-bearing URL replaced. */
export function redact(text: string): string {
  return redactText(text, registeredSecrets());
}

/** A JSON-like value with every string redacted (for /status and other structured output). */
export function redactDeep<T>(value: T): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v)) as T;
  if (value && typeof value === 'object' && isPlainRecord(value))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [redact(k), redactDeep(v)])) as T;
  return value;
}

/** A plain object: of Object.prototype, or without a prototype (the maps built from data). */
function isPlainRecord(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
