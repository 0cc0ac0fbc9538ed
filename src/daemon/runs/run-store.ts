import { existsSync } from 'node:fs';
import { appendFile, mkdir, open, readFile, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { RunRecord } from './run-record.js';

export type RunStoreOptions = {
  /** Runs kept (the newest). */
  maxRuns?: number;
  /** Size of the file past which it is compacted to the kept runs. */
  maxBytes?: number;
};

export type RunPage = { runs: RunRecord[]; nextCursor: string | null };

const DEFAULTS = { maxRuns: 500, maxBytes: 10 * 1024 * 1024 };

/**
 * The run history: one JSON line per run, appended; the newest `maxRuns` are kept in memory.
 * When the file holds clearly more than that (or grows past `maxBytes`) it is rewritten to the
 * kept runs through a temporary file and a rename, so a crash leaves either file whole. A torn
 * last line (a crash while appending) is skipped on load.
 */
export class RunStore {
  private runs: RunRecord[] = [];
  private lines = 0;
  private bytes = 0;
  private nextSeq = 1;
  private chain: Promise<void> = Promise.resolve();
  private readonly maxRuns: number;
  private readonly maxBytes: number;

  private constructor(
    readonly file: string,
    opts: RunStoreOptions,
  ) {
    this.maxRuns = Math.max(1, opts.maxRuns ?? DEFAULTS.maxRuns);
    this.maxBytes = opts.maxBytes ?? DEFAULTS.maxBytes;
  }

  static async open(file: string, opts: RunStoreOptions = {}): Promise<RunStore> {
    const store = new RunStore(file, opts);
    await mkdir(dirname(file), { recursive: true });
    if (existsSync(file)) {
      const text = await readFile(file, 'utf8');
      store.bytes = Buffer.byteLength(text);
      for (const line of text.split('\n')) {
        if (line.trim() === '') continue;
        store.lines += 1;
        const record = parseRecord(line);
        if (record) store.runs.push(record);
      }
      store.runs.sort((a, b) => a.seq - b.seq);
      store.nextSeq = (store.runs.at(-1)?.seq ?? 0) + 1;
      store.runs = store.runs.slice(-store.maxRuns);
    }
    return store;
  }

  /** Append a run; returns it with its sequence number. Writes are serialized. */
  append(run: Omit<RunRecord, 'seq'>): Promise<RunRecord> {
    const record: RunRecord = { seq: this.nextSeq, ...run };
    this.nextSeq += 1;
    this.runs.push(record);
    if (this.runs.length > this.maxRuns) this.runs.splice(0, this.runs.length - this.maxRuns);
    const line = `${JSON.stringify(record)}\n`;
    const write = async () => {
      await appendFile(this.file, line);
      this.lines += 1;
      this.bytes += Buffer.byteLength(line);
      const slack = Math.max(10, Math.ceil(this.maxRuns / 10));
      if (this.lines > this.maxRuns + slack || this.bytes > this.maxBytes) await this.compact();
    };
    const done = this.chain.then(write, write);
    this.chain = done.catch(() => undefined);
    return done.then(() => record);
  }

  /** Rewrite the file to the kept runs (dropping the oldest further while it is too large). */
  private async compact(): Promise<void> {
    let keep = this.runs.map((r) => `${JSON.stringify(r)}\n`);
    let size = keep.reduce((n, l) => n + Buffer.byteLength(l), 0);
    while (keep.length > 1 && size > this.maxBytes / 2) {
      size -= Buffer.byteLength(keep[0]!);
      keep = keep.slice(1);
    }
    this.runs = this.runs.slice(this.runs.length - keep.length);
    const tmp = `${this.file}.${process.pid}.tmp`;
    const handle = await open(tmp, 'w');
    try {
      await handle.writeFile(keep.join(''));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, this.file);
    this.lines = keep.length;
    this.bytes = size;
  }

  /** Wait for pending writes (tests, shutdown). */
  async flush(): Promise<void> {
    await this.chain;
  }

  get(id: string): RunRecord | undefined {
    for (let i = this.runs.length - 1; i >= 0; i -= 1) if (this.runs[i]!.id === id) return this.runs[i];
    return undefined;
  }

  /** Newest first, `limit` at a time; `cursor` is the `nextCursor` of the page before. */
  list(limit: number, cursor?: string): RunPage {
    const before = cursor === undefined ? Number.POSITIVE_INFINITY : Number(cursor);
    const older = this.runs.filter((r) => r.seq < before);
    const page = older.slice(-limit).reverse();
    const last = page.at(-1);
    return {
      runs: page,
      nextCursor: last && older.length > page.length ? String(last.seq) : null,
    };
  }

  /** Whether any record was ever kept with this id (ids must be unique). */
  has(id: string): boolean {
    return this.get(id) !== undefined;
  }
}

function parseRecord(line: string): RunRecord | null {
  try {
    const value = JSON.parse(line) as Partial<RunRecord>;
    if (typeof value.seq !== 'number' || typeof value.id !== 'string' || typeof value.result !== 'string')
      return null;
    return value as RunRecord;
  } catch {
    return null;
  }
}
