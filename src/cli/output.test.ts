import { describe, expect, it } from 'vitest';
import { progressLine, PROGRESS_REDRAW_MS, type RedrawClock } from './output.js';

/** A stream that records what is written, and a clock and timers the test moves by hand. */
function fakeTerminal(isTTY: boolean) {
  const written: string[] = [];
  let t = 1_000;
  let timers: { at: number; fn: () => void }[] = [];
  const clock: RedrawClock = {
    now: () => t,
    later: (fn, ms) => {
      const timer = { at: t + ms, fn };
      timers.push(timer);
      return () => void (timers = timers.filter((x) => x !== timer));
    },
  };
  const advance = (ms: number) => {
    t += ms;
    for (const timer of timers.filter((x) => x.at <= t)) {
      timers = timers.filter((x) => x !== timer);
      timer.fn();
    }
  };
  return {
    stream: { isTTY, write: (s: string) => written.push(s) > 0 },
    clock,
    advance,
    written,
    timers: () => timers,
  };
}

describe('progressLine', () => {
  it('without a TTY makes no text and writes nothing', () => {
    const term = fakeTerminal(false);
    const line = progressLine(term.stream, term.clock);
    let made = 0;
    for (let i = 0; i < 100; i += 1) line.update(() => `read ${(made += 1)}`);
    line.done();
    expect(made).toBe(0);
    expect(term.written).toEqual([]);
    expect(term.timers()).toEqual([]);
  });

  it('on a TTY draws at once, then at most once per interval, always ending on the last update', () => {
    const term = fakeTerminal(true);
    const line = progressLine(term.stream, term.clock);
    let made = 0;
    const report = (n: number) => line.update(() => ((made += 1), `read ${n}`));
    report(1); // drawn at once
    report(2); // waits for the interval's end
    term.advance(PROGRESS_REDRAW_MS - 1);
    report(3); // replaces 2, still waiting
    term.advance(1); // 3 drawn
    report(4); // waits
    term.advance(PROGRESS_REDRAW_MS); // 4 drawn, though no update came after it
    expect(made).toBe(3);
    expect(term.written).toEqual(['\r\x1b[2Kread 1', '\r\x1b[2Kread 3', '\r\x1b[2Kread 4']);
    term.advance(PROGRESS_REDRAW_MS * 3);
    line.update('plain text'); // long after: at once
    expect(term.written.at(-1)).toBe('\r\x1b[2Kplain text');
  });

  it('done cancels a waiting redraw and clears the line', () => {
    const term = fakeTerminal(true);
    const line = progressLine(term.stream, term.clock);
    line.update('one');
    line.update('two'); // waiting
    line.done();
    line.done(); // a caller's finally after its own done: nothing more
    term.advance(PROGRESS_REDRAW_MS * 2);
    expect(term.written).toEqual(['\r\x1b[2Kone', '\r\x1b[2K']);
    expect(term.timers()).toEqual([]);
  });

  it('clears nothing when it never drew', () => {
    const term = fakeTerminal(true);
    progressLine(term.stream, term.clock).done();
    expect(term.written).toEqual([]);
  });
});
