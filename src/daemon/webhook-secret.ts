import { readIndirect } from '../secrets/indirect.js';
import { registerSecret } from '../secrets/registry.js';
import { DocsyncError, type DocsyncErrorOptions } from '../errors.js';

export class WebhookSecretError extends DocsyncError<'webhook-secret'> {
  constructor(message: string, options?: DocsyncErrorOptions) {
    super('webhook-secret', message, options);
  }
}

/**
 * The webhook secret: the value (`--webhook-secret` or `DOCSYNC_WEBHOOK_SECRET`) or the content of
 * a file (`--webhook-secret-file` or `DOCSYNC_WEBHOOK_SECRET_FILE`; preferred: a flag shows in
 * `ps`). The file must be a regular file of at most 4096 characters; it is read without blocking.
 */
export async function resolveWebhookSecret(opts: {
  value?: string;
  file?: string;
}): Promise<string | undefined> {
  if (opts.value) {
    registerSecret(opts.value);
    return opts.value;
  }
  if (!opts.file) return undefined;
  let text: string;
  try {
    const read = await readIndirect(
      { file: opts.file },
      { baseDir: process.cwd(), root: '/', env: {}, maxChars: 4096, operatorPath: true },
    );
    text = read.value.trim();
  } catch (error) {
    throw new WebhookSecretError(`cannot read the webhook secret file: ${(error as Error).message}`);
  }
  if (!text) throw new WebhookSecretError(`the webhook secret file ${opts.file} is empty`);
  registerSecret(text);
  return text;
}
