import { describe, expect, it } from 'vitest';
import { progressLine, PROGRESS_REDRAW_MS } from './output.js';

/** A stream that records what is written, and a clock the test moves. */
function fakeTerminal(isTTY: boolean) {
  const written: string[] = [];
  let t = 1_000;
  return {
    stream: { isTTY, write: (s: string) => written.push(s) > 0 },
    now: () => t,
    advance: (ms: number) => void (t += ms),
    written,
  };
}

describe('progressLine', () => {
  it('without a TTY makes no text and writes nothing', () => {
    const term = fakeTerminal(false);
    const line = progressLine(term.stream, term.now);
    let made = 0;
    for (let i = 0; i < 100; i += 1) line.update(() => `read ${(made += 1)}`);
    line.done();
    expect(made).toBe(0);
    expect(term.written).toEqual([]);
  });

  it('on a TTY redraws at most once per interval, making the text only when it draws', () => {
    const term = fakeTerminal(true);
    const line = progressLine(term.stream, term.now);
    let made = 0;
    const report = (n: number) => line.update(() => ((made += 1), `read ${n}`));
    report(1); // drawn
    report(2); // too soon
    term.advance(PROGRESS_REDRAW_MS - 1);
    report(3); // too soon
    term.advance(1);
    report(4); // drawn
    line.update('plain text'); // too soon: a plain text is dropped as well
    line.done();
    expect(made).toBe(2);
    expect(term.written).toEqual(['\r\x1b[2Kread 1', '\r\x1b[2Kread 4', '\r\x1b[2K']);
  });

  it('clears nothing when it never drew', () => {
    const term = fakeTerminal(true);
    progressLine(term.stream, term.now).done();
    expect(term.written).toEqual([]);
  });
});
