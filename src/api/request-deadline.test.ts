import { describe, expect, it } from 'vitest';
import { requestDeadline } from './bounded-body.js';

/** Settles when `signal` aborts, with its reason. */
const aborted = (signal: { addEventListener(type: 'abort', listener: () => void): void; reason: unknown }) =>
  new Promise<unknown>((resolve) => signal.addEventListener('abort', () => resolve(signal.reason)));

describe('requestDeadline: the deadlines of an attempt', () => {
  it('aborts each deadline not cleared, in the order they were made, and never one cleared', async () => {
    const made = Array.from({ length: 6 }, () => requestDeadline(7));
    const fired: number[] = [];
    made.forEach((d, i) => d.addEventListener('abort', () => fired.push(i)));
    // Cleared out of order: the first (the list's front), one in the middle, the last.
    for (const i of [0, 3, 5]) made[i]!.clear();
    await aborted(made[4]!);
    expect(fired).toEqual([1, 2, 4]);
    expect(made[4]!.reason).toMatchObject({ code: 'deadline', timeoutMs: 7 });
    expect(made.map((d) => d.aborted)).toEqual([false, true, true, false, true, false]);
  });

  it('aborts a deadline made after another was cleared, and one made while an earlier one waits', async () => {
    const first = requestDeadline(9);
    first.clear();
    const second = requestDeadline(9);
    const third = requestDeadline(9);
    await expect(aborted(third)).resolves.toMatchObject({ code: 'deadline' });
    expect([first.aborted, second.aborted, third.aborted]).toEqual([false, true, true]);
  });

  it('calls the listeners left, in the order they were added, once', async () => {
    const deadline = requestDeadline(2);
    const called: string[] = [];
    const listener = (name: string) => () => called.push(name);
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map(listener);
    deadline.addEventListener('abort', a!);
    deadline.addEventListener('abort', b!);
    deadline.addEventListener('abort', c!);
    deadline.removeEventListener('abort', a!);
    deadline.removeEventListener('abort', c!);
    // Added after the first left: after those still there.
    deadline.addEventListener('abort', d!);
    deadline.addEventListener('abort', a!);
    deadline.removeEventListener('abort', listener('x'));
    await aborted(deadline);
    expect(called).toEqual(['b', 'd', 'a']);
    // Aborted once: a later expiry calls nothing again.
    (deadline as unknown as { expire(): void }).expire();
    expect(called).toEqual(['b', 'd', 'a']);
  });

  it('calls nothing of a deadline cleared or whose one listener left', async () => {
    const cleared = requestDeadline(1);
    const left = requestDeadline(1);
    const called: string[] = [];
    cleared.addEventListener('abort', () => called.push('cleared'));
    cleared.clear();
    const gone = () => called.push('left');
    left.addEventListener('abort', gone);
    left.removeEventListener('abort', gone);
    await aborted(left);
    expect(called).toEqual([]);
    expect(cleared.aborted).toBe(false);
  });

  it('aborts a deadline of another length (a write gate cut it shorter) on its own time', async () => {
    const long = requestDeadline(60_000);
    const short = requestDeadline(3);
    await expect(aborted(short)).resolves.toMatchObject({ code: 'deadline', timeoutMs: 3 });
    expect(long.aborted).toBe(false);
    long.clear();
  });
});
