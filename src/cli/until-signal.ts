// Its own module: the daemon waits on it without loading the emulator (src/cli/emulator.ts).

/**
 * Resolves when SIGTERM or SIGINT arrives, or, when `stop` is given, when it aborts instead (a
 * command run inside another program stops when that program says, never on the process's
 * signals).
 */
export function untilSignal(stop?: AbortSignal): Promise<NodeJS.Signals | 'abort'> {
  return new Promise((resolve) => {
    if (stop) {
      if (stop.aborted) resolve('abort');
      else stop.addEventListener('abort', () => resolve('abort'), { once: true });
      return;
    }
    const on = (s: NodeJS.Signals) => resolve(s);
    process.once('SIGTERM', on);
    process.once('SIGINT', on);
  });
}
