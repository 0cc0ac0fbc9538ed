import type { AheadStep } from '../model/steps.js';
import type { ApiClient } from '../api/client.js';
import { diff, diffAheadOf } from '../reconcile/diff.js';
import { readLive } from '../live/read.js';
import type { ReadProgress } from '../live/tracker.js';
import type { DesiredState, LiveState } from '../reconcile/index.js';
import { buildPlan, extendPlan } from '../plan/build.js';
import type { Plan } from '../plan/types.js';
import { resolveReferences } from './resolve.js';
import { LiveProof } from '../plan/live-proof.js';
import { inheritedOf, locateInConfig } from '../config/origins.js';
import type { OrgDiff } from '../reconcile/diff.js';
import { withAccess } from './plan-access.js';
import type { ArrivingList, ListWatcher } from '../model/arriving.js';

export type PlanRun = { desired: DesiredState; live: LiveState; plan: Plan };

/** Read live state for what the config manages, diff and order: the plan, and what it came from. */
export async function makePlan(
  api: ApiClient,
  desired: DesiredState,
  onProgress?: (p: ReadProgress) => void,
): Promise<PlanRun> {
  const options = { capabilities: api.capabilities };
  // A kind whose diff needs no other kind's is diffed while its list is read (from its first page,
  // each item once what it needs of it has arrived), in slices that leave the event loop to the
  // reads still under way; the diff below splices it in (decision 43). So is what each list proves
  // of the config's references (`LiveProof`), and which of its kind's references the proof leaves
  // to check.
  const ahead = diffAheadOf(desired, options);
  const proofs = new Map(desired.organizations.map((o) => [o.id, new LiveProof(o)]));
  // Not before the plan's first request is written: the first steps make each kind's setup (the
  // teams' names, the proof's entries: tens of ms cold), which held the first page's write back.
  const slices = new Ahead(() => api.http.written());
  // Once the diff has taken what it needs, what is still queued ahead is nobody's: dropped, also
  // when the read, resolving or diffing fails (else it would run on after the plan, holding the
  // states, and what waits for more of a list would wait for good: a daemon's next run reads again).
  let live: Awaited<ReturnType<typeof readLive>>;
  let diffed: ReturnType<typeof diff>;
  try {
    live = await readLive(api, desired, onProgress, (org, key, list) => {
      // What waits for more of a list runs again when more of it is read.
      list.watcher = slices;
      const proof = proofs.get(org);
      if (proof?.listArriving(key, list)) slices.add(() => proof.step(key), list);
      const one = ahead.get(org);
      if (one?.listArriving(key, list)) slices.add(() => one.step(key), list);
    });
    const unresolved = await resolveReferences(api, desired, live, proofs);
    diffed = withUnresolved(diff(desired, live, options, ahead), unresolved, desired);
  } finally {
    slices.stop();
  }
  const plan = withAccess(
    buildPlan(diffed, desired.targets ? { targets: desired.targets } : {}),
    desired,
    live,
  );
  const inherited = desired.organizations.flatMap(inheritedOf);
  return { desired, live, plan: inherited.length > 0 ? extendPlan(plan, { inherited }) : plan };
}

/** Each organization's diff, its settings located, with its unresolved references in its problems. */
function withUnresolved(
  diffs: OrgDiff[],
  unresolved: Awaited<ReturnType<typeof resolveReferences>>,
  desired: DesiredState,
): OrgDiff[] {
  return diffs.map((d) => {
    const problems = unresolved.get(d.organization);
    // A located unresolved reference replaces the diff's own unlocated words about it; the
    // organization's changes are then left out of the plan as a whole: never a partial apply.
    const located = locateSettings(desired, d);
    if (!problems) return located;
    return {
      ...located,
      problems: [...problems, ...located.problems.filter((p) => p.code !== 'unknown-reference')],
    };
  });
}

/**
 * How long a slice of work ahead holds the event loop (it ends with the first step past it: a site,
 * 100 teams, 8 live entries proven), which a chained page's answer may wait.
 */
const SLICE_MS = 2;

/** A task's step: `more` to do, `waiting` for more of its list to be read, or `done`. */
type Step = () => AheadStep;
type Task = { step: Step; list: ArrivingList };

/**
 * Work done ahead while the lists are read: its tasks' steps, one task after another, in one slice
 * of at most `SLICE_MS` per turn of the event loop, so that I/O (a chained page's answer, the next
 * page's write) waits for one slice at most, however many tasks there are. A task waiting for more
 * of a list is set aside until more is read (`wake`), so it costs nothing while it waits. A step
 * never throws: a failed one says it is done, and the work is done again in its place.
 * Each slice is an immediate of its own, not an async loop: a run began at each wake with waiting
 * tasks (1,346 on a request-heavy plan), each an async call, two awaits and a promise (issue 33).
 */
class Ahead implements ListWatcher {
  private readonly tasks: Task[] = [];
  /** The tasks waiting for more of a list, by the list. */
  private readonly waiting = new Map<ArrivingList, Task[]>();
  /** A slice is due (an immediate set, or the first write awaited). */
  private running = false;
  private stopped = true;
  /** Set once the first slice may run; until then, what it waits for (asked when the first task comes). */
  private open = true;
  private ready: Promise<void> | undefined;

  /** `first`: what the first slice waits for (the plan's first request written). */
  constructor(private readonly first: () => Promise<void>) {
    // Written twice at once: set first in `stop`, after the reader's code was optimized reading it
    // as a constant, it deoptimized that code (code dependencies, issue 33). So is `open`.
    this.stopped = false;
    this.open = false;
  }

  /** A task's steps, on what it is worked out from (`list`). */
  add(step: Step, list: ArrivingList): void {
    if (this.stopped) return;
    this.tasks.push({ step, list });
    this.start();
  }

  /** More of `list` is read: the tasks waiting for it go back in the queue, after the others. */
  wake(list: ArrivingList): void {
    const tasks = this.waiting.get(list);
    if (tasks === undefined || this.stopped) return;
    this.waiting.delete(list);
    for (const task of tasks) this.tasks.push(task);
    this.start();
  }

  /** Drop what is still queued or waiting: its results are no longer wanted. */
  stop(): void {
    this.stopped = true;
    this.tasks.length = 0;
    this.waiting.clear();
  }

  private start(): void {
    if (this.running) return;
    this.running = true;
    if (this.open) {
      setImmediate(this.slice);
      return;
    }
    this.ready ??= this.first().then(() => {
      this.open = true;
    });
    void this.ready.then(() => setImmediate(this.slice));
  }

  /** One slice: steps until `SLICE_MS` is spent or nothing is queued; the next in an immediate. */
  private readonly slice = (): void => {
    const until = performance.now() + SLICE_MS;
    while (this.tasks.length > 0 && performance.now() < until) {
      const r = this.tasks[0]!.step();
      if (r === 'more') continue;
      const task = this.tasks.shift()!;
      if (r === 'waiting') {
        const same = this.waiting.get(task.list);
        if (same) same.push(task);
        else this.waiting.set(task.list, [task]);
      }
    }
    if (this.tasks.length > 0) setImmediate(this.slice);
    else this.running = false;
  };
}

/** Where each entry's own `brokenLinks` that refused a link is in the config, when loaded here. */
function locateSettings(desired: DesiredState, d: OrgDiff): OrgDiff {
  const org = desired.organizations.find((o) => o.id === d.organization);
  if (!org || !d.brokenLinks?.some((b) => b.setting)) return d;
  const sites = org.sites ?? [];
  const brokenLinks = d.brokenLinks.map((b) => {
    const i = sites.findIndex((s) => s.title === b.site);
    const at = b.setting && i >= 0 ? locateInConfig(org, ['sites', i, ...b.setting.path], true) : undefined;
    return at && b.setting ? { ...b, setting: { ...b.setting, at } } : b;
  });
  return { ...d, brokenLinks };
}
