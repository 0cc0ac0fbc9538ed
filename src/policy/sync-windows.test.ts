import { describe, expect, it } from 'vitest';
import { applyBlocked, parseWindowDuration, windowVerdict, type SyncWindow } from './sync-windows.js';

const at = (iso: string) => Date.parse(iso);

const win = (
  kind: SyncWindow['kind'],
  schedule: string,
  duration: string,
  manualSync = false,
): SyncWindow => ({
  kind,
  schedule,
  duration,
  durationMs: parseWindowDuration(duration),
  manualSync,
  timeZone: 'UTC',
});

// Nightly deny 22:00-02:00; business-hours allow 09:00-17:00 on weekdays (2026-11-25 is a Wednesday).
const nightDeny = win('deny', '0 22 * * *', '4h');
const nightDenyManual = win('deny', '0 22 * * *', '4h', true);
const officeAllow = win('allow', '0 9 * * mon-fri', '8h');
const officeAllowManual = win('allow', '0 9 * * mon-fri', '8h', true);

describe('windowVerdict (Argo CD semantics)', () => {
  it.each([
    // [case, windows, now, apply, manual]
    ['no window', [], '2026-11-25T23:00:00Z', true, true],
    ['deny open', [nightDeny], '2026-11-25T23:00:00Z', false, false],
    ['deny open past midnight', [nightDeny], '2026-11-26T01:59:00Z', false, false],
    ['deny closed', [nightDeny], '2026-11-26T02:00:00Z', true, true],
    ['deny open, manualSync', [nightDenyManual], '2026-11-25T23:00:00Z', false, true],
    [
      'two denies open, one without manualSync',
      [nightDeny, nightDenyManual],
      '2026-11-25T23:00:00Z',
      false,
      false,
    ],
    ['allow open', [officeAllow], '2026-11-25T10:00:00Z', true, true],
    ['allow closed', [officeAllow], '2026-11-25T18:00:00Z', false, false],
    ['allow closed on a Saturday', [officeAllow], '2026-11-28T10:00:00Z', false, false],
    ['allow closed, manualSync', [officeAllowManual], '2026-11-25T18:00:00Z', false, true],
    [
      'deny wins over an open allow',
      [officeAllow, win('deny', '0 12 * * *', '1h')],
      '2026-11-25T12:30:00Z',
      false,
      false,
    ],
    ['allow open, deny closed', [officeAllow, nightDeny], '2026-11-25T12:30:00Z', true, true],
  ] as const)('%s', (_case, windows, now, apply, manual) => {
    const verdict = windowVerdict(windows, at(now));
    expect({ apply: verdict.apply, manual: verdict.manual }).toEqual({ apply, manual });
    expect(verdict.reason === undefined).toBe(apply);
  });

  it('names the open deny window and when it closes', () => {
    const verdict = windowVerdict([nightDeny], at('2026-11-25T23:00:00Z'));
    expect(verdict.reason).toBe('deny window "0 22 * * *" (4h, UTC) open until 2026-11-26T02:00:00.000Z');
    expect(verdict.windows).toEqual([
      expect.objectContaining({
        kind: 'deny',
        active: true,
        since: '2026-11-25T22:00:00.000Z',
        until: '2026-11-26T02:00:00.000Z',
      }),
    ]);
    expect(applyBlocked(verdict, false)).toBe(verdict.reason);
    expect(applyBlocked(verdict, true)).toBe(verdict.reason);
  });

  it('lets a manual sync through when manualSync says so, never an automatic one', () => {
    const verdict = windowVerdict([officeAllowManual], at('2026-11-25T18:00:00Z'));
    expect(verdict.reason).toMatch(/^outside every allow window .*manualSync/);
    expect(applyBlocked(verdict, true)).toBeUndefined();
    expect(applyBlocked(verdict, false)).toBe(verdict.reason);
  });
});

describe('parseWindowDuration', () => {
  it.each([
    ['30m', 1_800_000],
    ['1h', 3_600_000],
    ['1h30m', 5_400_000],
    ['2d', 172_800_000],
    ['1w', 604_800_000],
  ])('%s', (text, ms) => expect(parseWindowDuration(text)).toBe(ms));

  it.each([
    ['', /not a duration/],
    ['1', /not a duration/],
    ['90s', /not a duration/],
    ['0m', /shorter than a minute/],
    ['400d', /longer than 366 days/],
  ])('refuses %j', (text, message) => expect(() => parseWindowDuration(text)).toThrow(message));
});
