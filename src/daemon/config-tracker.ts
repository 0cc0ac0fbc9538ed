import { ConfigFileCache } from '../config/file-cache.js';
import type { ConfigIssue } from '../config/issues.js';
import { loadConfig } from '../config/load.js';
import type { Logger } from '../log/logger.js';
import { configFailure, failureFields } from '../pipeline/failure.js';
import type { DesiredState } from '../reconcile/index.js';
import type { ConfigSource, Revision } from '../source/types.js';
import type { DaemonParts } from './types.js';

/**
 * The configuration the daemon follows: the source's current revision and the last good config
 * loaded from it. An invalid revision keeps the last good config and holds its issues.
 */
export class ConfigTracker {
  revision: Revision | null = null;
  desired: DesiredState | null = null;
  /** The certificates' contents read with `desired`, by hash: applies send these, never re-reading the checkout. */
  certificates: ReadonlyMap<string, string> | undefined;
  /** The issues of the current revision when its config is invalid. */
  pendingIssues: ConfigIssue[] | null = null;
  /** Files parsed by earlier reloads: a change to one file re-parses only that file. */
  private readonly configCache = new ConfigFileCache();

  constructor(
    private readonly source: ConfigSource,
    private readonly parts: DaemonParts,
  ) {}

  /** Fetch the source; true when the revision changed. A failed fetch keeps the last good revision. */
  async refresh(log: Logger): Promise<boolean> {
    const { status, metrics } = this.parts;
    try {
      const revision = await this.source.refresh();
      status.source.lastFetchAt = new Date().toISOString();
      delete status.source.lastFetchError;
      if (this.revision?.id === revision.id) return false;
      this.revision = revision;
      status.source.revision = revision.id;
      if (revision.subject !== undefined) status.source.subject = revision.subject;
      if (revision.time !== undefined) status.source.time = revision.time;
      metrics.sourceInfo.reset();
      metrics.sourceInfo.set({ revision: revision.id }, 1);
      log.info({ revision: revision.id, subject: revision.subject }, 'new revision');
      await this.load(revision, log);
      return true;
    } catch (error) {
      status.source.lastFetchError = (error as Error).message;
      log.error({ err: (error as Error).message }, 'source refresh failed; keeping the last good revision');
      return false;
    }
  }

  private async load(revision: Revision, log: Logger): Promise<void> {
    const env = this.parts.opts.env;
    const result = await loadConfig(this.source.configDir, undefined, {
      cache: this.configCache,
      ...(env ? { env } : {}),
    });
    if (!result.desired) {
      this.parts.status.configValid = false;
      this.pendingIssues = result.issues;
      const failure = configFailure(result.issues, revision.id);
      log.error(
        {
          revision: revision.id,
          errors: result.issues.filter((i) => i.severity === 'error').length,
          ...failureFields(failure),
        },
        `invalid config; keeping the last good one: ${failure.message}`,
      );
      return;
    }
    this.parts.status.configValid = true;
    this.pendingIssues = null;
    this.desired = result.desired;
    this.certificates = result.certificates;
    this.parts.coordinator.manage(result.desired.organizations.map((o) => o.id));
  }
}
