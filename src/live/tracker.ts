export type ReadProgress = { listsDone: number; listsStarted: number };

/** Counts list reads for the progress line. */
export class Tracker {
  done = 0;
  started = 0;
  constructor(private readonly onProgress?: (p: ReadProgress) => void) {
    // Stored once more than their definition: V8 takes a field stored only where it is defined for
    // a constant, and code that inlined the progress report (`readChildren`'s compile, mid-read)
    // was thrown away when the first read ended (field constness dependency, decision 42's
    // seventeenth pass (req7)).
    this.done = 0;
    this.started = 0;
  }
  /**
   * The handlers of every request's end, made once per tracker: two closures made per request
   * lived as long as it waited in the client's queue (thousands at once, promoted by the
   * scavenges: decision 42's sixteenth pass).
   */
  private readonly fulfilled = <T>(value: T): T => {
    this.ended();
    return value;
  };
  private readonly rejected = (error: unknown): never => {
    this.ended();
    throw error;
  };
  /** Not an async function: one per request, and no frame kept while it waits (as `await` in `try`/`finally`). */
  track<T>(work: Promise<T>): Promise<T> {
    this.started += 1;
    // A progress callback that throws rejects the read, as it did when this was an async function.
    try {
      this.report();
    } catch (error) {
      return Promise.reject(error);
    }
    return work.then(this.fulfilled, this.rejected);
  }
  private ended() {
    this.done += 1;
    this.report();
  }
  private report() {
    this.onProgress?.({ listsDone: this.done, listsStarted: this.started });
  }
}

/** A request counted by the tracker (`Tracker.track`). */
export type Track = <T>(p: Promise<T>) => Promise<T>;
