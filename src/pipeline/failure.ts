import type { ApplyResult } from '../apply/result.js';
import type { ConfigIssue } from '../config/issues.js';
import { errorCode } from '../errors.js';
import type { Plan } from '../plan/types.js';
import type { LiveState } from '../reconcile/index.js';

/**
 * Why a run failed, in the one shape every report uses: the error's stable `code`, the place
 * (the API endpoint, the config file:line:column, or the change's address) and the reason. The
 * daemon's log line, `/status`, the status page and the run history carry this `message`.
 */
export type RunFailure = {
  code: string;
  message: string;
  /** `GET /orgs/{org}/teams`: the API call that failed. */
  endpoint?: string;
  /** `config/demo.yaml:38:5`, relative to the config repository's root. */
  file?: string;
  /** The address of the change that failed. */
  address?: string;
};

/** The plan's problems (a live read that failed, a reference that does not resolve…), or undefined. */
export function planFailure(plan: Plan, live?: LiveState): RunFailure | undefined {
  const first = plan.errors[0];
  if (!first) return undefined;
  const read = live?.organizations.find((o) => o.id === first.organization)?.readFailure;
  return {
    code: read?.code ?? first.code,
    message: plan.errors.map((e) => e.message).join('; '),
    ...(read?.endpoint ? { endpoint: read.endpoint } : {}),
  };
}

/**
 * Why an organization's live state could not be read, if it could not: what readiness judges.
 * A plan error about the config (an unknown reference) is the config's problem, not the API's.
 */
export function readFailureOf(live: LiveState, org: string): string | undefined {
  return live.organizations.find((o) => o.id === org)?.readError;
}

/** The changes that failed in an apply, or undefined when none did. */
export function applyFailure(result: ApplyResult): RunFailure | undefined {
  const failed = result.results.filter((r) => r.status === 'failed');
  const first = failed[0];
  if (!first) return undefined;
  const more = failed.length > 1 ? ` (and ${failed.length - 1} more failed change(s))` : '';
  return {
    code: first.code ?? 'apply-failed',
    message: `${first.id} ${first.action} ${first.kind} ${first.address} failed: ${first.message ?? 'unknown error'}${more}`,
    address: first.address,
  };
}

/** An invalid config: the first error, located, at the revision when there is one. */
export function configFailure(issues: readonly ConfigIssue[], revision?: string): RunFailure {
  const errors = issues.filter((i) => i.severity === 'error');
  const first = errors[0];
  const at = revision ? ` at revision ${revision.slice(0, 7)}` : '';
  if (!first) return { code: 'invalid-config', message: `the config is invalid${at}; nothing was applied` };
  const file = `${first.file}:${first.line}:${first.column}`;
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more error(s))` : '';
  return {
    code: 'invalid-config',
    message: `the config is invalid${at}; nothing was applied: ${file}: ${first.message}${more}`,
    file,
  };
}

/** Anything thrown. */
export function thrownFailure(error: unknown): RunFailure {
  const e = error as { method?: unknown; route?: unknown; message?: unknown };
  return {
    code: errorCode(error) ?? 'internal',
    message: typeof e.message === 'string' ? e.message : String(error),
    ...(typeof e.method === 'string' && typeof e.route === 'string'
      ? { endpoint: `${e.method} ${e.route}` }
      : {}),
  };
}

/** The fields of a log line about a failure: `{ code, endpoint | file | address }`. */
export function failureFields(f: RunFailure): Record<string, string> {
  const { message: _message, ...fields } = f;
  return fields;
}
