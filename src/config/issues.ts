import type { KindIssueCode } from '../kinds/registry.js';

/** A problem found in the configuration, located in its file. */
export type ConfigIssue = {
  severity: 'error' | 'warning';
  code: ConfigIssueCode;
  file: string;
  line: number;
  column: number;
  /** Key path inside the file, e.g. `sites[0].sections[2].path`; empty for the whole file. */
  path: string;
  message: string;
};

export type ConfigIssueCode =
  | 'no-config'
  | 'read-failed'
  | 'file-too-large'
  | 'invalid-utf8'
  | 'binary-file'
  | 'empty-file'
  | 'yaml-syntax'
  | 'duplicate-key'
  | 'alias-limit'
  | 'too-deep'
  | 'unknown-key'
  | 'required'
  | 'invalid-type'
  | 'invalid-value'
  | 'too-long'
  | 'too-short'
  | 'too-many'
  | 'too-few'
  | 'pattern'
  | 'duplicate'
  | 'unknown-reference'
  | 'unsupported-by-api'
  | 'multiple-defaults'
  | 'sections-and-spaces'
  | 'empty-section'
  | KindIssueCode
  | 'indirect-outside-root'
  | 'indirect-not-file'
  | 'indirect-env-not-allowed'
  | 'indirect-vcs-metadata'
  | 'indirect-symlink'
  | 'indirect-invalid-content'
  | 'config-symlink'
  | 'not-config'
  | 'reserved-name'
  | 'invalid-variable'
  | 'invalid-extends'
  | 'access-rule';

export function formatIssue(issue: ConfigIssue): string {
  const where = issue.path ? ` ${issue.path}:` : '';
  return `${issue.file}:${issue.line}:${issue.column}: ${issue.severity}[${issue.code}]${where} ${issue.message}`;
}

export function formatPath(path: readonly (string | number)[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(part)) out += out ? `.${part}` : part;
    else out += `[${JSON.stringify(part)}]`;
  }
  return out;
}
