import { CERTIFICATE_MAX, certificateHash, pemCertificateProblem } from '../model/certificate.js';
import type { CertificateRef, CertificateValue } from '../model/index.js';
import type { Change } from '../reconcile/index.js';
import {
  findRepositoryRoot,
  IndirectValueError,
  readIndirect,
  readIndirectSync,
  type IndirectContext,
  type IndirectSource,
} from '../secrets/indirect.js';
import { DocsyncError, type DocsyncErrorOptions } from '../errors.js';

export class CertificateChangedError extends DocsyncError<'certificate-changed'> {
  constructor(message: string, options?: DocsyncErrorOptions) {
    super('certificate-changed', message, options);
  }
}

/** Contents read and checked for this process, by hash (a hash names exactly one content). */
const verified = new Map<string, string | CertificateChangedError>();

function where(source: CertificateRef): string {
  return source.source === 'file' ? source.path : `$${source.name}`;
}

function context(root: string): IndirectContext {
  return {
    baseDir: process.cwd(),
    root,
    env: process.env,
    maxChars: CERTIFICATE_MAX,
    content: pemCertificateProblem,
  };
}

function asIndirect(source: CertificateRef): IndirectSource {
  return source.source === 'file' ? { file: source.path } : { env: source.name };
}

function asChanged(source: CertificateRef, error: unknown): CertificateChangedError {
  const reason = error instanceof IndirectValueError ? error.message : 'cannot be read';
  return new CertificateChangedError(`certificate ${where(source)} cannot be used: ${reason}`);
}

/** The content, trimmed, or the error that the change needing it fails with. */
function checked(source: CertificateRef, read: () => string): string | CertificateChangedError {
  let content: string;
  try {
    content = read();
  } catch (error) {
    return asChanged(source, error);
  }
  if (certificateHash(content) !== source.sha256)
    return new CertificateChangedError(
      `certificate ${where(source)} changed since the plan was made; plan again`,
    );
  return content.trim();
}

function collect(value: unknown, out: CertificateRef[]): void {
  if (Array.isArray(value)) for (const v of value) collect(v, out);
  else if (value && typeof value === 'object') {
    if ('$certificate' in value) out.push((value as CertificateValue).$certificate);
    else for (const v of Object.values(value)) collect(v, out);
  }
}

/**
 * Re-read, before a plan runs, every certificate its changes send: with the same confinement as
 * validation (inside `root`, regular file, size-capped, without blocking) and checked against the
 * hash the plan was made with. Failures are remembered and fail the change that needs them.
 * Contents in `loaded` (read with the config the plan was made from, by hash: the daemon's) are
 * used as they are, without touching the files: a fetch may be rewriting the checkout meanwhile.
 */
export async function preloadCertificates(
  changes: readonly Change[],
  root?: string,
  loaded?: ReadonlyMap<string, string>,
): Promise<void> {
  const sources: CertificateRef[] = [];
  for (const change of changes) collect(change.op, sources);
  const ctx = context(root ?? findRepositoryRoot(process.cwd()));
  for (const source of sources) {
    const known = loaded?.get(source.sha256);
    if (known !== undefined && certificateHash(known) === source.sha256) {
      verified.set(source.sha256, known);
      continue;
    }
    let content: string | CertificateChangedError;
    try {
      const { value } = await readIndirect(asIndirect(source), ctx);
      content = checked(source, () => value);
    } catch (error) {
      content = asChanged(source, error);
    }
    verified.set(source.sha256, content);
  }
}

/**
 * The certificate's content for a request body: what `preloadCertificates` checked, else read
 * now with the same confinement (rooted at the working directory's repository).
 */
export function readCertificateSource(source: CertificateRef): string {
  const known = verified.get(source.sha256);
  if (known instanceof Error) throw known;
  if (known !== undefined) return known;
  const ctx = context(findRepositoryRoot(process.cwd()));
  const content = checked(source, () => readIndirectSync(asIndirect(source), ctx).value);
  if (content instanceof Error) throw content;
  return content;
}
