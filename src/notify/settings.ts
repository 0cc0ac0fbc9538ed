import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { formatIssue, formatPath, type ConfigIssue } from '../config/issues.js';
import { locate, parseYamlFile, type YamlFile } from '../config/yaml-file.js';
import { zodToIssues } from '../config/zod-issues.js';
import { DocsyncError } from '../errors.js';
import { BoundedFileError, readBoundedFile } from '../secrets/bounded-file.js';
import { registerSecret } from '../secrets/registry.js';
import { EVENT_TYPES, SEVERITIES, type EventType } from './events.js';
import { PROVIDER_TYPES, type NotificationProvider, type ProviderType } from './provider.js';

/**
 * The daemon's notification providers (`--notifications FILE`, `DOCSYNC_NOTIFICATIONS`): a YAML
 * file of the daemon's settings, not of the organizations' config. Checked like a config file
 * (zod, then located `file:line:column` errors); secrets come only from files, read with the
 * bounded reader and registered for redaction; no error ever holds a file's content.
 */
const providerSchema = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/),
  type: z.enum(PROVIDER_TYPES),
  address: z.string().min(1).optional(),
  addressFile: z.string().min(1).optional(),
  secretFile: z.string().min(1).optional(),
  apiUrl: z.string().min(1).optional(),
  severity: z.enum(SEVERITIES).optional(),
  events: z.array(z.enum(EVENT_TYPES)).min(1).optional(),
  orgs: z.array(z.string().min(1)).min(1).optional(),
});
type ProviderSpec = z.infer<typeof providerSchema>;

export const notificationsSchema = z.strictObject({ providers: z.array(providerSchema).min(1) });

/** The most a secret or address file may hold. */
export const MAX_SECRET_FILE_BYTES = 16 * 1024;

export class NotificationsError extends DocsyncError<'notifications'> {
  constructor(
    message: string,
    readonly issues: readonly ConfigIssue[] = [],
  ) {
    super('notifications', message);
  }
}

/** The `--notify-url` shorthand: one Slack provider with the drift events (what it always did). */
export function notifyUrlProvider(url: string): NotificationProvider {
  registerSecret(url);
  return {
    name: 'notify-url',
    type: 'slack',
    address: url,
    severity: 'info',
    events: ['drift', 'drift-error'],
  };
}

const isHttpUrl = (value: string): boolean => {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
};

/** `owner/repo`, or a GitHub URL of it (`https://github.com/owner/repo.git`). */
function githubRepository(address: string): string | undefined {
  const path = isHttpUrl(address) ? new URL(address).pathname : address;
  const m = /^\/?([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+?)(?:\.git)?\/?$/.exec(path);
  if (!m || /^\.+$/.test(m[1]!) || /^\.+$/.test(m[2]!)) return undefined;
  return `${m[1]}/${m[2]}`;
}

type Issue = (path: (string | number)[], message: string, key?: boolean) => ConfigIssue;

/** What each provider type needs, checked after the schema: one located issue per problem. */
function shapeIssues(p: ProviderSpec, at: (key: string, message: string) => ConfigIssue): ConfigIssue[] {
  const out: ConfigIssue[] = [];
  if (p.address !== undefined && p.addressFile !== undefined)
    out.push(at('addressFile', 'give address or addressFile, not both'));
  if (p.address === undefined && p.addressFile === undefined)
    out.push(at('name', `a ${p.type} provider needs ${p.type === 'github' ? 'address' : 'addressFile'}`));
  if ((p.type === 'slack' || p.type === 'msteams') && p.address !== undefined)
    out.push(
      at('address', `a ${p.type} webhook URL is a secret: put it in a file and name it with addressFile`),
    );
  if ((p.type === 'generic-hmac' || p.type === 'github') && p.secretFile === undefined)
    out.push(
      at(
        'name',
        `a ${p.type} provider needs secretFile (${p.type === 'github' ? 'the token' : 'the HMAC key'})`,
      ),
    );
  if ((p.type === 'slack' || p.type === 'msteams') && p.secretFile !== undefined)
    out.push(at('secretFile', `a ${p.type} provider takes no secretFile (its URL is its secret)`));
  if (p.type === 'github' && p.address !== undefined && !githubRepository(p.address))
    out.push(at('address', 'expected owner/repo or https://github.com/owner/repo'));
  if (p.type !== 'github' && p.address !== undefined && !isHttpUrl(p.address))
    out.push(at('address', 'expected an http(s) URL'));
  if (p.apiUrl !== undefined && (p.type !== 'github' || !isHttpUrl(p.apiUrl)))
    out.push(
      at('apiUrl', p.type === 'github' ? 'expected an http(s) URL' : 'only a github provider takes apiUrl'),
    );
  return out;
}

/** A secret file's content, trimmed; a located issue when it cannot be used. */
async function readSecret(
  yaml: YamlFile,
  path: (string | number)[],
  file: string,
  issue: Issue,
): Promise<string | ConfigIssue> {
  const full = resolve(dirname(yaml.file), file);
  let text: string;
  try {
    text = (await readBoundedFile(full, MAX_SECRET_FILE_BYTES)).toString('utf8').trim();
  } catch (error) {
    if (error instanceof BoundedFileError) return issue(path, `${full} ${error.message}`);
    throw error;
  }
  if (text === '') return issue(path, `${full} is empty`);
  registerSecret(text);
  return text;
}

/** One provider, its files read; issues when it cannot be used. */
async function provider(
  yaml: YamlFile,
  index: number,
  p: ProviderSpec,
  issue: Issue,
): Promise<NotificationProvider | ConfigIssue[]> {
  const at = (key: string, message: string) => issue(['providers', index, key], message, key === 'name');
  const problems = shapeIssues(p, at);
  if (problems.length > 0) return problems;
  let address = p.address ?? '';
  if (p.addressFile !== undefined) {
    const read = await readSecret(yaml, ['providers', index, 'addressFile'], p.addressFile, issue);
    if (typeof read !== 'string') return [read];
    // Never echo the content: the URL is the secret.
    if (!isHttpUrl(read)) return [at('addressFile', `${p.addressFile} does not hold an http(s) URL`)];
    address = read;
  }
  if (p.type === 'github') address = githubRepository(address) ?? address;
  let secret: string | undefined;
  if (p.secretFile !== undefined) {
    const read = await readSecret(yaml, ['providers', index, 'secretFile'], p.secretFile, issue);
    if (typeof read !== 'string') return [read];
    secret = read;
  }
  return {
    name: p.name,
    type: p.type as ProviderType,
    address,
    ...(secret !== undefined ? { secret } : {}),
    ...(p.apiUrl !== undefined ? { apiUrl: p.apiUrl } : {}),
    severity: p.severity ?? 'info',
    events: p.events ?? ([...EVENT_TYPES] as EventType[]),
    ...(p.orgs !== undefined ? { orgs: p.orgs } : {}),
  };
}

/** Parse and check a notifications file's bytes, reading the files it names. */
export async function parseNotifications(file: string, bytes: Buffer): Promise<NotificationProvider[]> {
  const yaml = parseYamlFile(file, bytes);
  if (Array.isArray(yaml)) throw failure(yaml);
  const parsed = notificationsSchema.safeParse(yaml.value);
  if (!parsed.success) throw failure(zodToIssues(notificationsSchema, yaml, parsed.error));
  const issue: Issue = (path, message, key = false) => ({
    severity: 'error',
    code: 'invalid-value',
    file,
    ...locate(yaml, path, key),
    path: formatPath(path),
    message,
  });
  const issues: ConfigIssue[] = [];
  const seen = new Set<string>();
  parsed.data.providers.forEach((p, i) => {
    if (seen.has(p.name))
      issues.push({
        ...issue(['providers', i, 'name'], `a provider named "${p.name}" is given twice`),
        code: 'duplicate',
      });
    seen.add(p.name);
  });
  const providers: NotificationProvider[] = [];
  for (const [i, p] of parsed.data.providers.entries()) {
    const result = await provider(yaml, i, p, issue);
    if (Array.isArray(result)) issues.push(...result);
    else providers.push(result);
  }
  if (issues.length > 0) throw failure(issues);
  return providers;
}

function failure(issues: readonly ConfigIssue[]): NotificationsError {
  return new NotificationsError(
    `the notifications file is invalid (--notifications, DOCSYNC_NOTIFICATIONS):\n${issues.map(formatIssue).join('\n')}`,
    issues,
  );
}

/** Read the notifications file (bounded, like a config file) and its providers. */
export async function loadNotifications(file: string): Promise<NotificationProvider[]> {
  let bytes: Buffer;
  try {
    bytes = await readBoundedFile(file, 1024 * 1024);
  } catch (error) {
    if (error instanceof BoundedFileError)
      throw new NotificationsError(
        `the notifications file ${file} (--notifications, DOCSYNC_NOTIFICATIONS) ${error.message}`,
      );
    throw error;
  }
  return parseNotifications(file, bytes);
}
