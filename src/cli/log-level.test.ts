import { describe, expect, it } from 'vitest';
import { effectiveLogLevel } from './log-level.js';

describe('effectiveLogLevel', () => {
  const base = { level: 'info', explicit: false, stderrIsTty: true };
  it('is warn for one-shot commands on a terminal, so log lines never break up the plan', () => {
    for (const command of ['plan', 'apply', 'drift', 'comment', 'export'])
      expect(effectiveLogLevel({ ...base, command })).toBe('warn');
  });
  it('keeps the level off a terminal, when asked for explicitly, and for the daemon', () => {
    expect(effectiveLogLevel({ ...base, command: 'plan', stderrIsTty: false })).toBe('info');
    expect(effectiveLogLevel({ ...base, command: 'plan', explicit: true })).toBe('info');
    expect(effectiveLogLevel({ ...base, command: 'plan', explicit: true, level: 'debug' })).toBe('debug');
    expect(effectiveLogLevel({ ...base, command: 'daemon' })).toBe('info');
    expect(effectiveLogLevel({ ...base, command: 'demo' })).toBe('info');
  });
});
