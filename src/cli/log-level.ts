/**
 * The log level of a command. One-shot commands (plan, apply, drift, comment, export) print a
 * plan or a report on the terminal: there, info lines would break it up, so they log at warn
 * unless --log-level or DOCSYNC_LOG_LEVEL says otherwise. The daemon (and the demo) keep info:
 * their log is what a person watches. Off a terminal (CI, a pipe, a file) nothing changes.
 */
export const QUIET_ON_TTY = new Set(['plan', 'apply', 'drift', 'comment', 'export']);

export function effectiveLogLevel(opts: {
  command: string;
  /** The level from the flag, the environment or the default. */
  level: string;
  /** True when --log-level or DOCSYNC_LOG_LEVEL set it. */
  explicit: boolean;
  stderrIsTty: boolean;
}): string {
  if (opts.explicit || !opts.stderrIsTty || !QUIET_ON_TTY.has(opts.command)) return opts.level;
  return 'warn';
}
