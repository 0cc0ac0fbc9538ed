import { describe, expect, it } from 'vitest';
import { Attempt, Writes } from './attempt.js';
import { RateBudget } from './rate-limit.js';
import { serveOne } from '../../test/helpers/http-client.js';

/** An attempt's own deadline (its Node timer), at each point of its exchange: a real server on port 0. */

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const attempt = (timeoutMs: number) => new Attempt(1024, timeoutMs, new Writes(new RateBudget()), false);

describe('Attempt: its deadline', () => {
  it('passed before the request is written: rejects with the deadline, unanswered, the server never reached', async () => {
    let reached = false;
    const { agent, req } = await serveOne((_req, res) => {
      reached = true;
      res.end('{}');
    });
    const a = attempt(1);
    await wait(20);
    await expect(a.send(agent, req)).rejects.toMatchObject({ code: 'deadline' });
    expect(a.expired?.timeoutMs).toBe(1);
    expect(a.answered).toBe(false);
    expect(reached).toBe(false);
    a.clearDeadline();
  });

  it('passing while the answer is awaited: rejects with the deadline', async () => {
    const { agent, req } = await serveOne(() => {
      // never answers
    });
    const a = attempt(30);
    await expect(a.send(agent, req)).rejects.toMatchObject({ code: 'deadline' });
    expect(a.expired).toBeDefined();
    a.clearDeadline();
  });

  it('cleared once the answer is in: it never fires afterwards', async () => {
    const { agent, req } = await serveOne((_req, res) => res.end('{"ok":true}'));
    // A deadline the answer of a loaded machine (a suite's parallel files, other runs) still beats:
    // at 30 ms the answer came after it once (the deadline fired first, and the test failed).
    const a = attempt(400);
    const bytes = await a.send(agent, req);
    a.clearDeadline();
    await wait(450);
    expect(bytes.toString()).toBe('{"ok":true}');
    expect(a.expired).toBeUndefined();
  });
});
