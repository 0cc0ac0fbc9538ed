// The chain's pages step by step, for bench/latency-trace.ts: when the client asked for each
// teams page (`HttpClient.send`, from the page before's `PageWalk.askAhead`), took it from its
// queue (with the rate budget's slot it waited for), handed it to undici, wrote it to its socket,
// heard the answer's headers, had its whole body, began and ended making its items (`shape`).
// Times in ms (fractions kept) from the trace's start, by `performance.now()`.
import diagnostics from 'node:diagnostics_channel';
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { ApiClient } from '../src/api/client.js';

export type ChainStep = {
  queued?: number;
  /** The client's queue when it was asked for: running, allowed in flight, waiting, a slot waited for. */
  state?: string;
  slot?: number;
  dequeued?: number;
  dispatched?: number;
  written?: number;
  heard?: number;
  complete?: number;
  shapeStart?: number;
  shapeEnd?: number;
};

/** A request in the client's queue (`Call`): reads of a route wait in the route's lane. */
type Queued = { lane: string };
type Internals = {
  /** The client's queue of requests (`Lanes`). */
  waiting: {
    size: number;
    push(call: Queued, priority: number, share?: number): void;
    shift(): Queued | undefined;
  };
  running: number;
  concurrency: number;
  pumping: boolean;
  pacing: number;
  agent: { dispatch(opts: { path: string }, handler: unknown): boolean };
};

const CHAIN_ROUTE = '/orgs/{org}/teams';
export const isChainPath = (path: string) => /\/teams(\?|$)/.test(path);

/** Watch the client's chain of teams pages (the steps, in the order the pages were asked for). */
export function traceChain(api: ApiClient, t0: number): ChainStep[] {
  const at = () => performance.now() - t0;
  const steps: ChainStep[] = [];
  const http = api.http;
  const inner = http as unknown as Internals;
  // Each step by the order its page was asked for, undici's by the order its requests were written.
  type Reader = { read(res: unknown): unknown; peek(status: number, bytes: Buffer): boolean };
  const send = http.send.bind(http) as (req: unknown, shape?: Reader) => Promise<unknown>;
  (http as unknown as { send: typeof send }).send = (req, shape) => {
    const r = req as { route: string };
    if (r.route !== CHAIN_ROUTE) return send(req, shape);
    const step: ChainStep = {
      queued: at(),
      state: `${inner.running}/${inner.concurrency} run, ${inner.waiting.size} wait, ${inner.pacing} pacing${inner.pumping ? ', pump' : ''}`,
    };
    steps.push(step);
    // A page's reader (`AnswerReader`): its answer timed, its look at the bytes as it was.
    const shaped: Reader = {
      read: (res: unknown) => {
        step.shapeStart = at();
        try {
          return shape ? shape.read(res) : res;
        } finally {
          step.shapeEnd = at();
        }
      },
      peek: (status: number, bytes: Buffer) => (shape ? shape.peek(status, bytes) : false),
    };
    return send(req, shaped);
  };
  let lastSlot = 0;
  const acquire = http.budget.acquire.bind(http.budget);
  http.budget.acquire = (waiting?: number) => {
    const wait = acquire(waiting);
    if (wait <= 0) lastSlot = at();
    return wait;
  };
  const queued = new Map<Queued, ChainStep>();
  const push = inner.waiting.push.bind(inner.waiting);
  inner.waiting.push = (call, priority, share) => {
    if (call.lane === CHAIN_ROUTE && steps.length > 0) queued.set(call, steps.at(-1)!);
    push(call, priority, share);
  };
  const shift = inner.waiting.shift.bind(inner.waiting);
  inner.waiting.shift = () => {
    const call = shift();
    const step = call && queued.get(call);
    if (step) {
      step.dequeued = at();
      step.slot = lastSlot;
      queued.delete(call);
    }
    return call;
  };
  const dispatch = inner.agent.dispatch.bind(inner.agent);
  let dispatched = 0;
  inner.agent.dispatch = (opts, handler) => {
    if (isChainPath(opts.path)) steps[dispatched++]!.dispatched = at();
    return dispatch(opts, handler);
  };
  const on = (channel: string, key: 'written' | 'heard' | 'complete') => {
    let k = 0;
    diagnostics.subscribe(channel, (m) => {
      const { request } = m as { request: { path: string } };
      if (isChainPath(request.path) && steps[k]) steps[k++]![key] = at();
    });
  };
  on('undici:client:sendHeaders', 'written');
  on('undici:request:headers', 'heard');
  on('undici:request:trailers', 'complete');
  return steps;
}

/** The steps, page by page; `answered`: when the emulator answered each page (its log, same clock). */
export function printSteps(steps: ChainStep[], chain: { at: number; done: number; delay: number }[]): void {
  // For a CPU profile's reading (`--cpu-prof`): the steps as JSON.
  if (process.env.CHAIN_STEPS) writeFileSync(process.env.CHAIN_STEPS, JSON.stringify({ steps, chain }));
  const f = (a: number | undefined, b: number | undefined) =>
    a === undefined || b === undefined ? '    ?' : (b - a).toFixed(1).padStart(5);
  console.log(
    'page: answered→asked (answ→heard heard→body body→asked) | asked→slot slot→dequeued →dispatched →written →recv | asked when; the page before: body→shape, shape',
  );
  const names = [
    'answ→heard',
    'heard→body',
    'body→asked',
    'asked→slot',
    'slot→dequeued',
    '→dispatched',
    '→written',
    '→recv',
  ];
  const sums = new Array<number>(names.length).fill(0);
  steps.forEach((s, k) => {
    const prev = k > 0 ? steps[k - 1] : undefined;
    const answered = k > 0 ? chain[k - 1]?.done : undefined;
    const parts: [number | undefined, number | undefined][] = [
      [answered, prev?.heard],
      [prev?.heard, prev?.complete],
      [prev?.complete, s.queued],
      [s.queued, s.slot],
      [Math.max(s.queued ?? 0, s.slot ?? 0), s.dequeued],
      [s.dequeued, s.dispatched],
      [s.dispatched, s.written],
      [s.written, chain[k]?.at],
    ];
    // The slot taken before the page was asked for: `pump`'s, given to it (no wait of its own).
    const slotWait = s.slot !== undefined && s.queued !== undefined && s.slot > s.queued;
    parts.forEach(([a, b], i) => {
      if (a !== undefined && b !== undefined && k > 0 && (i !== 3 || slotWait)) sums[i]! += b - a;
    });
    const cells = parts.map(([a, b], i) => (i === 3 && !slotWait ? '  old' : f(a, b)));
    console.log(
      `${String(k + 1).padStart(4)}: ${f(answered, s.queued)} (${cells.slice(0, 3).join(' ')}) | ${cells.slice(3).join(' ')} | ${s.state ?? ''}; ${f(prev?.complete, prev?.shapeStart)} ${f(prev?.shapeStart, prev?.shapeEnd)}`,
    );
  });
  console.log(
    `sums over pages 2–${steps.length} (ms): ${names.map((n, i) => `${n} ${sums[i]!.toFixed(0)}`).join(', ')}`,
  );
  // The emulator's own part: how much longer than the latency it drew each answer took (recv → answ).
  const over = chain.map((c) => c.done - c.at - c.delay);
  console.log(
    `emulator: latencies drawn ${chain.reduce((a, c) => a + c.delay, 0).toFixed(0)} ms, answered later than drawn by ${over.reduce((a, b) => a + b, 0).toFixed(0)} ms in all (max ${Math.max(...over).toFixed(0)})`,
  );
}
