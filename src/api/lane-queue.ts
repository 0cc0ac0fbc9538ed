import type { Queue, QueueAddOptions } from 'p-queue';

type Run = () => Promise<unknown>;

/** p-queue's options for one task, with the lane it waits in. */
export type LaneOptions = QueueAddOptions & {
  /** Tasks of one lane start in the order they came; lanes share the turns (default: one shared lane). */
  lane?: string;
  /**
   * The lane's weight in the turns (default 1): a lane of share 1.5 is served as if it had two
   * thirds of its work, so it ends when lanes of share 1 are two thirds through theirs.
   */
  share?: number | undefined;
};

/**
 * What waits in a lane: the HTTP client's calls themselves (`Lanes`), or p-queue's runs (`LaneQueue`).
 * `laneNext` is the lane's own link to the task queued after it in the lane (set and cleared by
 * the queue only): a lane is a chain of its tasks, not an array.
 */
export type LaneTask = {
  readonly lane: string;
  readonly id: string | undefined;
  laneNext: LaneTask | undefined;
};
type Task = LaneTask & { run: Run };
/**
 * A lane's waiting tasks, `first` to `last` through their `laneNext` links; `waiting`: how many.
 * `served`: tasks of this lane dequeued since it last had none waiting (its progress, with `waiting`).
 * A task dequeued is unlinked: the lane keeps nothing of a task that started (a call kept would keep
 * its caller's promise, and so its answer, as long). A chain, not an array with a moving head:
 * nothing to compact, and no branch that first runs when a lane has served a thousand tasks
 * (the array's compaction deoptimized the client's `start`, which inlines `shift`, in the middle
 * of a plan: decision 42's seventeenth pass).
 */
type Lane<E> = { name: string; first: E | undefined; last: E | undefined; waiting: number; served: number };

/** No lane's name (a lane is a route, or '' for the writes): what `Level.shift` deletes when no lane empties. */
const NO_LANE = '\0';

/**
 * The lanes of one priority, served in proportion to what each has waiting: the next task comes from
 * the lane that has done the smallest part of its work (served / (served + waiting)), the lanes
 * taking turns on ties. Lanes of 3,000 light reads and 664 heavy ones then end together, the heavy
 * ones spread over the whole read instead of taking a third of the first half (decision 43).
 */
class Level<E extends LaneTask> {
  readonly lanes = new Map<string, Lane<E>>();
  /**
   * The shares of the lanes whose share is not 1. Not a field of the lane (nor of its tasks): the
   * first lane of share 1.5 turned such a field from small integers to doubles, which deprecated
   * the lanes' shape and threw away the client's optimized code in the middle of a plan.
   */
  private readonly shares = new Map<string, number>();
  /** Lanes with tasks, in the order they are served. */
  ring: Lane<E>[] = [];
  cursor = 0;
  size = 0;

  push(task: E, share = 1): void {
    const lane = task.lane;
    let l = this.lanes.get(lane);
    if (!l) {
      l = { name: lane, first: undefined, last: undefined, waiting: 0, served: 0 };
      this.lanes.set(lane, l);
      if (share !== 1) this.shares.set(lane, share);
      // A new lane waits for its turn behind the lanes already served in this round.
      this.ring.splice(this.cursor, 0, l);
      this.cursor += 1;
    }
    if (l.last === undefined) l.first = task;
    else l.last.laneNext = task;
    l.last = task;
    l.waiting += 1;
    this.size += 1;
  }

  shift(): E | undefined {
    if (this.size === 0) return undefined;
    if (this.cursor >= this.ring.length) this.cursor = 0;
    this.cursor = this.behind();
    const lane = this.ring[this.cursor]!;
    const task = lane.first!;
    lane.first = task.laneNext as E | undefined;
    task.laneNext = undefined;
    lane.waiting -= 1;
    lane.served += 1;
    this.size -= 1;
    // A lane left with no task leaves the level; any other, the cursor moves past it. Without a
    // branch of its own: a lane empties at the plan's first few starts (its top lists, one request
    // each), before V8 keeps type feedback for this code, and then not until late in the reads, where
    // a branch run only then deoptimized the client's `start` (which inlines this) in every plan.
    // Deleting a name that is not there and splicing out nothing cost well under a microsecond.
    const emptied = lane.waiting === 0;
    const name = lane.name;
    this.lanes.delete(emptied ? name : NO_LANE);
    this.shares.delete(emptied ? name : NO_LANE);
    this.ring.splice(this.cursor, emptied ? 1 : 0);
    this.cursor += emptied ? 0 : 1;
    return task;
  }

  /** The index in the ring of the lane furthest behind, the first from the cursor on ties. */
  private behind(): number {
    let best = this.cursor;
    const lane = this.ring[best]!;
    // a behind b: a.served / (a.share × a.total) < b.served / (b.share × b.total), without division.
    let served = lane.served;
    let total = this.shareOf(lane.name) * (lane.served + lane.waiting);
    for (let k = 1; k < this.ring.length; k += 1) {
      const i = (this.cursor + k) % this.ring.length;
      const l = this.ring[i]!;
      const lTotal = this.shareOf(l.name) * (l.served + l.waiting);
      if (l.served * total < served * lTotal) {
        best = i;
        served = l.served;
        total = lTotal;
      }
    }
    return best;
  }

  /** The lane's share (1 unless it was queued with another). */
  shareOf(lane: string): number {
    return this.shares.size === 0 ? 1 : (this.shares.get(lane) ?? 1);
  }

  /** The task `match` finds, out of the level, with its lane's share. */
  remove(match: (t: E) => boolean): { task: E; share: number } | undefined {
    for (const [i, lane] of this.ring.entries()) {
      let before: E | undefined;
      let task = lane.first;
      while (task !== undefined && !match(task)) {
        before = task;
        task = task.laneNext as E | undefined;
      }
      if (task === undefined) continue;
      const after = task.laneNext as E | undefined;
      if (before === undefined) lane.first = after;
      else before.laneNext = after;
      if (lane.last === task) lane.last = before;
      task.laneNext = undefined;
      lane.waiting -= 1;
      const share = this.shareOf(lane.name);
      this.size -= 1;
      if (lane.waiting === 0) {
        this.drop(lane.name);
        this.ring.splice(i, 1);
        if (i < this.cursor) this.cursor -= 1;
      }
      return { task, share };
    }
    return undefined;
  }

  /** A lane with no task left waiting. */
  private drop(lane: string): void {
    this.lanes.delete(lane);
    if (this.shares.size > 0) this.shares.delete(lane);
  }

  *tasks(): Generator<E> {
    for (const lane of this.ring)
      for (let t = lane.first; t !== undefined; t = t.laneNext as E | undefined) yield t;
  }
}

/**
 * The HTTP client's queue of calls (decision 43; as p-queue's `Queue`: `LaneQueue`): higher priorities first, as p-queue's own; within a priority, the lanes (the client uses a read's route) share the turns in proportion to
 * what each has waiting, so thousands of one kind of read queued first do not hold back another kind
 * queued later, and all lanes end together. The plan's reads then mix heavy answers (a site's
 * sections) with light ones (a team's members) evenly, which spreads the client's own work over the
 * time the rate limit takes instead of bunching it.
 */
export class Lanes<E extends LaneTask> {
  /**
   * `shares`: the share of a lane whose task is queued without one, by lane (the client's routes,
   * `HttpClient.shareRoute`), read when the task is queued. Not in the task: a `share` there,
   * undefined for most requests and 1.5 for some, changed the options' shape mid-plan.
   */
  constructor(private readonly shares?: ReadonlyMap<string, number>) {}

  protected readonly levels = new Map<number, Level<E>>();
  /** Priorities with a level, highest first. */
  protected order: number[] = [];
  /** Tasks waiting, all priorities: counted as they come and go (the pump asks at every start and end). */
  size = 0;

  /** The highest priority a task waits at (undefined: none waits). */
  get top(): number | undefined {
    for (const priority of this.order) if (this.levels.get(priority)!.size > 0) return priority;
    return undefined;
  }

  /** Queue `task` in its lane at `priority` (higher first); `share`: the lane's, when not the queue's. */
  push(task: E, priority: number, share?: number): void {
    let level = this.levels.get(priority);
    if (!level) {
      level = new Level<E>();
      this.levels.set(priority, level);
      this.order = [...this.levels.keys()].sort((a, b) => b - a);
    }
    level.push(task, share ?? this.shares?.get(task.lane));
    this.size += 1;
  }

  /** The next task to start (the queue no longer holds it). */
  shift(): E | undefined {
    for (const priority of this.order) {
      const task = this.levels.get(priority)!.shift();
      if (task) {
        this.size -= 1;
        return task;
      }
    }
    return undefined;
  }

  /** The task `match` finds, out of the queue, with its lane's share (p-queue's `setPriority` and `remove`). */
  protected take(match: (t: E) => boolean): { task: E; share: number } | undefined {
    for (const level of this.levels.values()) {
      const found = level.remove(match);
      if (!found) continue;
      this.size -= 1;
      return found;
    }
    return undefined;
  }
}

/**
 * The lanes as p-queue's `Queue` (its `queueClass`): each task a run, with its options.
 */
export class LaneQueue extends Lanes<Task> implements Queue<Run, LaneOptions> {
  enqueue(run: Run, options?: Partial<LaneOptions>): void {
    this.push(
      { run, id: options?.id, lane: options?.lane ?? '', laneNext: undefined },
      options?.priority ?? 0,
      options?.share,
    );
  }

  dequeue(): Run | undefined {
    return this.shift()?.run;
  }

  filter(options: Readonly<Partial<LaneOptions>>): Run[] {
    const level = this.levels.get(options.priority ?? 0);
    return level ? [...level.tasks()].map((t) => t.run) : [];
  }

  setPriority(id: string, priority: number): void {
    const found = this.take((t) => t.id === id);
    // The share of the lane it waited in: the queue keeps one share per lane, which replaces the task's own.
    if (found) return this.push(found.task, priority, found.share);
    throw new ReferenceError(`No promise function with the id "${id}" exists in the queue.`);
  }

  remove(idOrRun: string | Run): void {
    this.take((t) => (typeof idOrRun === 'string' ? t.id === idOrRun : t.run === idOrRun));
  }
}
