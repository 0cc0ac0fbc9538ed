import { emptyList } from './holey.js';

/**
 * A live list as it is being read (decision 43, eighth pass): its items as its pages bring them
 * (`paged`, each with the fields that name it: id, title), each item whole once the reads below it
 * are done (`whole`), and the array the live state holds once the list is read (`items`). The
 * reader fills it; work done ahead (a kind's diff, what the list proves) waits on it a step at a
 * time: a step that needs what is not read yet yields `WAIT`, and runs again when its `watcher`
 * is told. Pure: no I/O, no timers.
 */
export class ArrivingList<T = unknown> {
  /** The items as paged so far, in the list's order. */
  readonly paged: T[];
  /** Every page is read (`paged` is the whole list as paged). */
  pagesDone = false;
  /** The array the live state holds for the list, once it is read whole (and every read below it). */
  items: readonly T[] | undefined;
  /**
   * Told whenever more is read. One object's method for every list, not a closure per list: the
   * reader's code, optimized calling the first list's closure, deoptimized at the next (wrong call
   * target, issue 33).
   */
  watcher: ListWatcher | undefined;
  /** Each item with its reads below, by the item as paged; undefined: no reads below (paged is whole). */
  private readonly wholes: Map<T, T> | undefined;

  /** `below`: whether reads below the items complete them (else an item is whole as paged). */
  // `emptyList`: the reader's first push of each list met a `[]` of small integers (issue 33).
  constructor(below: boolean, paged: T[] = emptyList<T>()) {
    this.paged = paged;
    this.wholes = below ? new Map() : undefined;
  }

  /** A list already read whole (its items complete). */
  static read<T>(items: readonly T[]): ArrivingList<T> {
    const list = new ArrivingList<T>(false, items as T[]);
    list.pagesDone = true;
    list.items = items;
    return list;
  }

  /** `item` (as paged) with its reads below, once they are done. */
  whole(item: T): T | undefined {
    return this.wholes ? this.wholes.get(item) : item;
  }

  /** The reader: a page's items are in `paged`. */
  pageRead(): void {
    this.watcher?.wake(this);
  }

  /** The reader: every page is read. */
  allPagesRead(): void {
    this.pagesDone = true;
    this.watcher?.wake(this);
  }

  /** The reader: the reads below `item` are done. */
  itemRead(item: T, whole: T): void {
    this.wholes?.set(item, whole);
    this.watcher?.wake(this);
  }

  /** The reader: the list is read whole; `items` is the array the live state holds. */
  read(items: readonly T[]): void {
    this.items = items;
    this.watcher?.wake(this);
  }
}

/** What is told when more of a list is read (`ArrivingList.watcher`). */
export type ListWatcher = { wake(list: ArrivingList): void };

/** What a step yields when it needs more of a list than is read (`ArrivingList`). */
export const WAIT = 'wait';
export type Wait = typeof WAIT;

/** Every page of `list` (its items as paged), once read. */
export function* pagesOf<T>(list: ArrivingList<T>): Generator<Wait, readonly T[], undefined> {
  while (!list.pagesDone) yield WAIT;
  return list.paged;
}

/** `item` (as paged) whole, once the reads below it are done. */
export function* wholeOf<T>(list: ArrivingList<T>, item: T): Generator<Wait, T, undefined> {
  let whole = list.whole(item);
  while (whole === undefined) {
    yield WAIT;
    whole = list.whole(item);
  }
  return whole;
}

/** The array the live state holds for `list`, once it is read whole. */
export function* itemsOf<T>(list: ArrivingList<T>): Generator<Wait, readonly T[], undefined> {
  while (list.items === undefined) yield WAIT;
  return list.items;
}
