/**
 * Run `task` through a queue (`enqueue` hands it the run); the promise returned settles as the task does.
 *
 * p-queue keeps a task it has started in its array (before its head, until a compaction that
 * waits for half the array to be consumed), and with it the closure that resolves the promise
 * `add` returned: that promise, and so the task's result, stays reachable. A plan queues
 * thousands of reads at once, so up to half of all its answers (whole pages, parsed) stayed in
 * memory and were copied by every scavenge (decision 42). The client's lane queue (decision 43)
 * keeps started tasks the same way, until it compacts a lane. Here the task resolves a promise of
 * its own through a holder it empties once it runs, and gives the queue nothing to keep.
 */
export function queued<T, O>(
  enqueue: (run: () => Promise<void>, options: O) => void,
  task: () => Promise<T>,
  options: O,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settle: { resolve: (value: T) => void; reject: (error: unknown) => void } | undefined = {
      resolve,
      reject,
    };
    // Not an async function: the task's own promise settles the caller's, one promise less per call.
    const run = (): Promise<void> => {
      const to = settle!;
      settle = undefined;
      try {
        return task().then(to.resolve, to.reject);
      } catch (error) {
        to.reject(error);
        return Promise.resolve();
      }
    };
    enqueue(run, options);
  });
}
