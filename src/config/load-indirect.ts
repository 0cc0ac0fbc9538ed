import { dirname, isAbsolute, relative, resolve } from 'node:path';
import {
  findRepositoryRoot,
  IndirectValueError,
  type IndirectContext,
  type IndirectErrorCode,
  type IndirectSource,
  type IndirectValue,
} from '../secrets/indirect.js';
import { anyListKinds, listIn } from '../kinds/registry.js';
import { certificateHash } from '../model/certificate.js';
import type { CertificateRef } from '../model/desired.js';
import type { ConfigIssue } from './issues.js';
import type { LoadOptions, Parsed } from './load-types.js';
import { locate, mayHoldAny } from './yaml-file.js';

/**
 * The values the config asks for through `file:`/`env:` (the kinds' `indirect`), beside load.ts,
 * which reads them: where each is asked for, what a problem reading it is, and what is kept of it.
 */

type IndirectRequest = {
  /** The config entry that asks for the value (its kind's `normalize` gets the reference by it). */
  entry: object;
  source: IndirectSource;
  ctx: IndirectContext;
  issue: (message: string, code: ConfigIssue['code']) => ConfigIssue;
};

/** The list kinds' `indirect` keys: an entry asks for an indirect value only under one of them. */
const INDIRECT_KEYS: readonly string[] = anyListKinds.flatMap((kind) =>
  kind.indirect ? [kind.indirect.key] : [],
);

/** Every indirect value the configs ask for (the kinds' `indirect`), with where to report problems. */
export function indirectRequests(parsed: Parsed[], opts: LoadOptions): IndirectRequest[] {
  const out: IndirectRequest[] = [];
  for (const { yaml, config, path } of parsed) {
    // A file that writes none of the keys asks for nothing: its entries are not walked (issue 33).
    if (!mayHoldAny(yaml, INDIRECT_KEYS)) continue;
    // The file's folder and repository, found at its first request: most files have none, and
    // resolving 665 paths was most of this walk (issue 33).
    let where: { baseDir: string; root: string } | undefined;
    const placed = () => {
      if (where) return where;
      const baseDir = dirname(resolve(path ?? yaml.file));
      return (where = { baseDir, root: opts.root ?? findRepositoryRoot(baseDir) });
    };
    for (const kind of anyListKinds) {
      const indirect = kind.indirect;
      if (!indirect) continue;
      listIn(config, kind.key)?.forEach((entry, i) => {
        const source = indirect.source(entry as never);
        if (!source) return;
        const under = indirect.under === undefined ? [] : [indirect.under];
        const at = [kind.key, i, indirect.key, ...under, 'file' in source ? 'file' : 'env'];
        const { baseDir, root } = placed();
        out.push({
          entry: entry as object,
          source,
          ctx: {
            baseDir,
            root,
            env: opts.env ?? process.env,
            maxChars: indirect.maxChars,
            content: indirect.content,
            ...(indirect.secret === false ? { secret: false } : {}),
          },
          issue: (message, code) => ({
            severity: 'error',
            code,
            file: yaml.file,
            ...locate(yaml, at, true),
            path: [`${kind.key}[${i}]`, indirect.key, ...under].join('.'),
            message,
          }),
        });
      });
    }
  }
  return out;
}

const INDIRECT_CODES: Record<IndirectErrorCode, ConfigIssue['code']> = {
  'outside-root': 'indirect-outside-root',
  'vcs-metadata': 'indirect-vcs-metadata',
  symlink: 'indirect-symlink',
  'invalid-content': 'indirect-invalid-content',
  'not-regular-file': 'indirect-not-file',
  'too-large': 'too-long',
  'read-failed': 'read-failed',
  'env-not-allowed': 'indirect-env-not-allowed',
  'env-unset': 'read-failed',
};

/** Only the hash and where the value comes from enter the desired state, never the content. */
function certificateRef({ source, ctx }: IndirectRequest, value: IndirectValue): CertificateRef {
  if ('env' in source) return { source: 'env', name: source.env, sha256: certificateHash(value.value) };
  // Relative to the working directory when inside it, so plans do not depend on where the repo is checked out.
  const full = resolve(ctx.baseDir, source.file);
  const rel = relative(process.cwd(), full);
  const path = rel.startsWith('..') || isAbsolute(rel) ? full : rel;
  return { source: 'file', path, sha256: certificateHash(value.value) };
}

/** Keep the content read for a certificate, by its hash (trimmed, as it is sent). */
function remember(contents: Map<string, string>, ref: CertificateRef, value: IndirectValue): CertificateRef {
  contents.set(ref.sha256, value.value.trim());
  return ref;
}

/** What the loader read through `file:`/`env:`: secrets by reference, documents by their text. */
export type IndirectRead = {
  certificates: Map<object, CertificateRef>;
  /** Their contents, by hash (re-sent at apply without reading the files again: the daemon). */
  contents: Map<string, string>;
  documents: Map<object, string>;
};

export const indirectRead = (): IndirectRead => ({
  certificates: new Map(),
  contents: new Map(),
  documents: new Map(),
});

/** A value read for a request: a document's text as it is, a secret's reference (its content kept by hash). */
export function keep(read: IndirectRead, request: IndirectRequest, value: IndirectValue): void {
  if (request.ctx.secret === false) read.documents.set(request.entry, value.value);
  else read.certificates.set(request.entry, remember(read.contents, certificateRef(request, value), value));
}

export function indirectIssue(request: IndirectRequest, error: unknown): ConfigIssue {
  if (!(error instanceof IndirectValueError)) throw error;
  return request.issue(error.message, INDIRECT_CODES[error.code]);
}
