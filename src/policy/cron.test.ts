import { describe, expect, it } from 'vitest';
import { CronError, knownTimeZone, lastFired, parseCron } from './cron.js';

const at = (iso: string) => Date.parse(iso);
const H = 3_600_000;

describe('parseCron', () => {
  it.each([
    ['0 22 * * 1-5', { minutes: [0], hours: [22] }],
    ['*/15 9-17 * * *', { minutes: [0, 15, 30, 45], hours: [9, 10, 11, 12, 13, 14, 15, 16, 17] }],
    ['5,10 0 * * *', { minutes: [5, 10], hours: [0] }],
    ['30 8/6 * * *', { minutes: [30], hours: [8, 14, 20] }],
    ['@daily', { minutes: [0], hours: [0] }],
  ])('%s', (text, expected) => {
    expect(parseCron(text)).toMatchObject(expected);
  });

  it('reads month and weekday names, and 7 as Sunday', () => {
    const c = parseCron('0 0 * jan-mar SUN,7');
    expect([...c.months]).toEqual([1, 2, 3]);
    expect([...c.weekdays]).toEqual([0]);
  });

  it.each([
    ['0 22 * *', /has 4 field/],
    ['0 0 22 * * *', /has 6 field/],
    ['61 * * * *', /minute: 61 is out of range/],
    ['0 24 * * *', /hour: 24 is out of range/],
    ['0 0 0 * *', /day of month: 0 is out of range/],
    ['0 0 * 13 *', /month: 13 is out of range/],
    ['0 0 * * 5-1', /day of week: the range "5-1" runs backwards/],
    ['*/0 * * * *', /minute: the step in "\*\/0" must be 1 or more/],
    ['a * * * *', /minute: "a" is not a value/],
    ['0 0 L * *', /day of month: "L" is not a value/],
  ])('refuses %s with the field named', (text, message) => {
    expect(() => parseCron(text)).toThrow(CronError);
    expect(() => parseCron(text)).toThrow(message);
  });
});

describe('lastFired', () => {
  it.each([
    // [schedule, zone, now, within, expected start or undefined]
    ['0 22 * * *', 'UTC', '2026-11-25T22:30:00Z', 2 * H, '2026-11-25T22:00:00Z'],
    ['0 22 * * *', 'UTC', '2026-11-25T22:00:00Z', 2 * H, '2026-11-25T22:00:00Z'],
    ['0 22 * * *', 'UTC', '2026-11-26T00:00:00Z', 2 * H, undefined], // the end is exclusive
    ['0 22 * * *', 'UTC', '2026-11-25T23:59:59Z', 2 * H, '2026-11-25T22:00:00Z'],
    ['0 22 * * *', 'UTC', '2026-11-25T21:59:00Z', 2 * H, undefined],
    ['*/15 * * * *', 'UTC', '2026-11-25T10:44:10Z', 15 * 60_000, '2026-11-25T10:30:00Z'],
    ['*/15 * * * *', 'UTC', '2026-11-25T10:44:10Z', 14 * 60_000, undefined],
    // Weekdays only: Saturday 2026-11-28 00:30 is inside Friday's 22:00 window.
    ['0 22 * * mon-fri', 'UTC', '2026-11-28T00:30:00Z', 4 * H, '2026-11-27T22:00:00Z'],
    ['0 22 * * mon-fri', 'UTC', '2026-11-29T00:30:00Z', 4 * H, undefined],
    // Day of month and day of week both restricted: either matches (Vixie cron).
    ['0 0 1 * mon', 'UTC', '2026-11-30T01:00:00Z', 2 * H, '2026-11-30T00:00:00Z'],
    ['0 0 1 * mon', 'UTC', '2026-12-01T01:00:00Z', 2 * H, '2026-12-01T00:00:00Z'],
    ['0 0 1 * mon', 'UTC', '2026-12-02T01:00:00Z', 2 * H, undefined],
    // A week-long window found far back.
    ['0 0 24 12 *', 'UTC', '2026-12-30T12:00:00Z', 14 * 24 * H, '2026-12-24T00:00:00Z'],
    // Time zones: 22:00 in Paris is 21:00 UTC in winter, 20:00 in summer.
    ['0 22 * * *', 'Europe/Paris', '2026-11-25T21:30:00Z', H, '2026-11-25T21:00:00Z'],
    ['0 22 * * *', 'Europe/Paris', '2026-07-01T20:30:00Z', H, '2026-07-01T20:00:00Z'],
    ['0 22 * * *', 'Europe/Paris', '2026-07-01T21:30:00Z', H, undefined],
    // Half-hour offset: 09:00 in Kolkata is 03:30 UTC.
    ['0 9 * * *', 'Asia/Kolkata', '2026-11-25T03:45:00Z', H, '2026-11-25T03:30:00Z'],
    // Daylight saving: Paris jumps from 02:00 to 03:00 on 2026-03-29; a 01:30 start is still found.
    ['30 1 * * *', 'Europe/Paris', '2026-03-29T02:00:00Z', 3 * H, '2026-03-29T00:30:00Z'],
    // …and a 23:30 start the day before the jump is found from two days later.
    ['30 23 28 3 *', 'Europe/Paris', '2026-03-30T12:00:00Z', 3 * 24 * H, '2026-03-28T22:30:00Z'],
    // New York falls back on 2026-11-01: 01:30 happens twice; the later one is the last start.
    ['30 1 * * *', 'America/New_York', '2026-11-01T06:45:00Z', H, '2026-11-01T06:30:00Z'],
  ])('%s in %s at %s within %d ms', (schedule, zone, now, within, expected) => {
    const found = lastFired(parseCron(schedule), zone, at(now), within);
    expect(found === undefined ? undefined : new Date(found).toISOString().replace('.000', '')).toBe(
      expected,
    );
  });

  it('walks back a year-long window in well under the time of a request', () => {
    const started = performance.now();
    expect(lastFired(parseCron('0 0 1 1 *'), 'UTC', at('2026-12-31T23:00:00Z'), 366 * 24 * H)).toBe(
      at('2026-01-01T00:00:00Z'),
    );
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('knows time zones', () => {
    expect(knownTimeZone('Europe/Paris')).toBe(true);
    expect(knownTimeZone('UTC')).toBe(true);
    expect(knownTimeZone('Mars/Olympus')).toBe(false);
  });
});
