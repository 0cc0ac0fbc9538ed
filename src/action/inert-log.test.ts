import { describe, expect, it } from 'vitest';
import { inertLog } from './inert-log.js';

/** The runner's rule: the commands it would run, honouring `::stop-commands::`. */
function commandsRun(log: string): string[] {
  const run: string[] = [];
  let resume: string | undefined;
  for (const line of log.split('\n')) {
    if (resume !== undefined) {
      if (line === resume) resume = undefined;
      continue;
    }
    const stop = /^::stop-commands::(.+)$/.exec(line);
    if (stop) resume = `::${stop[1]}::`;
    else if (/^\s*::/.test(line)) run.push(line);
  }
  return run;
}

describe('inertLog', () => {
  it.each([
    ['a forged error', 'x\n::error title=pwn::forged\n'],
    ['a mask and an output', '::add-mask::x\n::set-output name=a::b'],
    ['a guessed end marker', '::stop-commands::x\n::x::\n::error::after\n'],
    ['plain text', 'Plan: 1 to create.\n'],
  ])('runs no command from %s', (_name, text) => {
    expect(commandsRun(text).length > 0 || _name === 'plain text').toBe(true);
    const log = inertLog(text);
    expect(commandsRun(log)).toEqual([]);
    expect(log).toContain(text.trimEnd());
    expect(log.endsWith('::\n')).toBe(true);
  });

  it('uses a fresh token each time, and nothing for empty text', () => {
    expect(inertLog('a')).not.toBe(inertLog('a'));
    expect(inertLog('a', 't')).toBe('::stop-commands::t\na\n::t::\n');
    expect(inertLog('')).toBe('');
  });
});
