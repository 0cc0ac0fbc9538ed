import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { AnswerTooLargeError, DeadlineError } from './bounded-body.js';
import { Exchange } from './exchange.js';
import { serveOne } from '../../test/helpers/http-client.js';

/** An exchange that counts when its request is written (`sent`), or is stopped before it sends. */
class Observed extends Exchange {
  written = 0;
  protected override sent(): void {
    this.written += 1;
  }
  stopNow(reason: unknown): this {
    this.stop(reason);
    return this;
  }
}

describe('Exchange: one request and its whole answer through our own dispatch handler', () => {
  it('skips an informational answer, keeps every chunk and the headers, and says when it was written', async () => {
    const { agent, req } = await serveOne((_req, res) => {
      res.writeEarlyHints({ link: '</a.css>; rel=preload' });
      res.writeHead(200, { 'content-type': 'application/json', 'x-ratelimit-remaining': '7' });
      res.write('{"items":[');
      setTimeout(() => res.end('1,2,3]}'), 20);
    });
    const exchange = new Observed(1024);
    const bytes = await exchange.send(agent, req);
    expect(JSON.parse(bytes.toString())).toEqual({ items: [1, 2, 3] });
    expect(exchange.statusCode).toBe(200);
    expect(exchange.headers['x-ratelimit-remaining']).toBe('7');
    expect(exchange.answered).toBe(true);
    expect(exchange.written).toBe(1);
  });

  it('hands over the one chunk itself, several joined in order, none as an empty buffer', async () => {
    /** The bytes an exchange settles with after `chunks`, fed to it as undici's core does. */
    const settled = (chunks: string[]) => {
      const exchange = new Exchange(1024);
      const dispatcher = { dispatch: () => true } as unknown as Parameters<Exchange['send']>[0];
      const got = exchange.send(dispatcher, {
        origin: 'http://x',
        path: '/',
        method: 'GET',
        headers: {},
        body: undefined,
      });
      exchange.onHeaders(200, []);
      const buffers = chunks.map((c) => Buffer.from(c));
      for (const b of buffers) exchange.onData(b);
      exchange.onComplete();
      return { got, buffers };
    };
    const one = settled(['{"items":[]}']);
    expect(await one.got).toBe(one.buffers[0]);
    expect((await settled(['{"it', 'ems":', '[]}']).got).toString()).toBe('{"items":[]}');
    expect((await settled(['ab', 'c']).got).toString()).toBe('abc');
    const none = await settled([]).got;
    expect([Buffer.isBuffer(none), none.length]).toEqual([true, 0]);
  });

  it('an empty answer is an empty buffer', async () => {
    const { agent, req } = await serveOne((_req, res) => res.writeHead(204).end());
    const exchange = new Exchange(1024);
    expect((await exchange.send(agent, req)).length).toBe(0);
    expect(exchange.statusCode).toBe(204);
  });

  it('an answer over the bound as it arrives rejects once, with nothing kept, and the connection is dropped', async () => {
    let closed = false;
    const { agent, req } = await serveOne((_req, res) => {
      res.on('close', () => (closed = true));
      res.writeHead(200);
      res.write('x'.repeat(600));
      setTimeout(() => res.write('y'.repeat(600)), 20);
    });
    const exchange = new Exchange(1000);
    await expect(exchange.send(agent, req)).rejects.toBeInstanceOf(AnswerTooLargeError);
    expect(exchange.answered).toBe(true);
    await expect.poll(() => closed).toBe(true);
  });

  it('stopped before the request was written: rejects with its reason, unanswered', async () => {
    let reached = false;
    const { agent, req } = await serveOne((_req, res) => {
      reached = true;
      res.end('{}');
    });
    const exchange = new Observed(1024).stopNow(new DeadlineError(1));
    await expect(exchange.send(agent, req)).rejects.toMatchObject({ code: 'deadline' });
    expect(exchange.answered).toBe(false);
    expect(reached).toBe(false);
  });

  it('lets go of the answer once it is handed over (undici keeps finished requests and their handlers a while)', async () => {
    // A full collection on demand, without starting the test process with `--expose-gc`.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const { agent, req } = await serveOne((_req, res) => res.end('x'.repeat(100_000)));
    // Kept, as undici's queue keeps the handler of a finished request until it compacts.
    const exchange = new Exchange(1_000_000);
    const answer = await (async () => new WeakRef(await exchange.send(agent, req)))();
    await new Promise((resolve) => setTimeout(resolve, 10));
    gc();
    expect(exchange.statusCode).toBe(200);
    expect(answer.deref()).toBeUndefined();
  });
});
