/**
 * Five-field cron schedules for sync windows (minute hour day-of-month month day-of-week), and
 * the last time one started before a given instant, in a time zone. Pure: no timer, no I/O.
 *
 * Hand-written (decision 0032): node-cron, which the daemon uses to run its drift schedule, can
 * tell whether one instant matches but not when a schedule last fired, and importing it in the
 * config schema would load the scheduler into every `validate` and `plan`.
 */
export type Cron = {
  readonly minutes: readonly number[];
  readonly hours: readonly number[];
  readonly days: ReadonlySet<number>;
  readonly months: ReadonlySet<number>;
  readonly weekdays: ReadonlySet<number>;
  /** The day-of-month and day-of-week fields were `*`: then both must match, else either (as in Vixie cron). */
  readonly anyDay: boolean;
  readonly anyWeekday: boolean;
};

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

const MACROS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

type FieldSpec = { name: string; min: number; max: number; names?: string[]; nameBase?: number };

const FIELDS: FieldSpec[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: MONTHS, nameBase: 1 },
  { name: 'day of week', min: 0, max: 7, names: WEEKDAYS, nameBase: 0 },
];

/** A schedule that cannot be read: the message names the field and the value. */
export class CronError extends Error {}

/** Parse a five-field cron expression (or a macro such as `@daily`); throws CronError. */
export function parseCron(text: string): Cron {
  const source = MACROS[text.trim().toLowerCase()] ?? text.trim();
  const parts = source.split(/\s+/).filter((p) => p.length > 0);
  if (parts.length !== 5)
    throw new CronError(
      `"${text}" has ${parts.length} field(s); a sync window's schedule has five: minute hour day-of-month month day-of-week (e.g. "0 22 * * 1-5")`,
    );
  const [minute, hour, day, month, weekday] = parts.map((p, i) => field(p, FIELDS[i]!));
  const weekdays = new Set([...weekday!].map((d) => (d === 7 ? 0 : d)));
  return {
    minutes: [...minute!].sort((a, b) => a - b),
    hours: [...hour!].sort((a, b) => a - b),
    days: day!,
    months: month!,
    weekdays,
    anyDay: isStar(parts[2]!),
    anyWeekday: isStar(parts[4]!),
  };
}

const isStar = (p: string) => p === '*' || p === '?';

function field(text: string, spec: FieldSpec): Set<number> {
  const values = new Set<number>();
  for (const item of text.split(',')) {
    const [range, stepText, extra] = item.split('/');
    if (extra !== undefined || range === undefined || range === '')
      throw new CronError(`${spec.name}: "${item}" is not a value, a range or a step`);
    const step = stepText === undefined ? 1 : number(stepText, spec, 'step');
    if (step < 1) throw new CronError(`${spec.name}: the step in "${item}" must be 1 or more`);
    let from: number;
    let to: number;
    if (isStar(range)) [from, to] = [spec.min, spec.max === 7 ? 6 : spec.max];
    else {
      const [a, b, more] = range.split('-');
      if (more !== undefined) throw new CronError(`${spec.name}: "${item}" is not a range`);
      from = value(a!, spec);
      to = b === undefined ? (stepText === undefined ? from : spec.max) : value(b, spec);
    }
    if (from > to) throw new CronError(`${spec.name}: the range "${item}" runs backwards`);
    for (let v = from; v <= to; v += step) values.add(v);
  }
  return values;
}

function value(text: string, spec: FieldSpec): number {
  const named = spec.names?.indexOf(text.toLowerCase()) ?? -1;
  if (named >= 0) return named + (spec.nameBase ?? 0);
  const n = number(text, spec, 'value');
  if (n < spec.min || n > spec.max)
    throw new CronError(`${spec.name}: ${n} is out of range (${spec.min}-${spec.max})`);
  return n;
}

function number(text: string, spec: FieldSpec, what: string): number {
  if (!/^\d{1,4}$/.test(text)) throw new CronError(`${spec.name}: "${text}" is not a ${what}`);
  return Number(text);
}

/** Local wall-clock parts of an instant in a time zone. */
export type LocalTime = { month: number; day: number; weekday: number; hour: number; minute: number };

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Throws RangeError for a time zone Intl does not know. */
export function localTime(at: number, timeZone: string): LocalTime {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      month: 'numeric',
      day: 'numeric',
      weekday: 'short',
      hour: 'numeric',
      minute: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  const p = Object.fromEntries(f.formatToParts(at).map((x) => [x.type, x.value]));
  return {
    month: Number(p['month']),
    day: Number(p['day']),
    weekday: WEEKDAYS.indexOf(String(p['weekday']).toLowerCase().slice(0, 3)),
    hour: Number(p['hour']) % 24,
    minute: Number(p['minute']),
  };
}

/** Whether `timeZone` is a zone Intl knows (an IANA name such as `Europe/Paris`, or `UTC`). */
export function knownTimeZone(timeZone: string): boolean {
  try {
    localTime(0, timeZone);
    return true;
  } catch {
    return false;
  }
}

function dayMatches(cron: Cron, t: LocalTime): boolean {
  if (!cron.months.has(t.month)) return false;
  const day = cron.days.has(t.day);
  const weekday = cron.weekdays.has(t.weekday);
  return cron.anyDay || cron.anyWeekday ? day && weekday : day || weekday;
}

const MINUTE = 60_000;

/**
 * The latest minute at or before `now` at which the schedule fires, if one lies within the last
 * `withinMs` (exclusive: a start exactly `withinMs` ago has ended). Walks back a day at a time
 * through days that cannot match, an hour at a time through hours that cannot, then to the
 * matching minute, re-reading the wall clock at each step (so daylight-saving jumps skip nothing).
 */
export function lastFired(cron: Cron, timeZone: string, now: number, withinMs: number): number | undefined {
  let t = Math.floor(now / MINUTE) * MINUTE;
  while (t > now - withinMs) {
    const local = localTime(t, timeZone);
    if (!dayMatches(cron, local)) {
      // Back to this day's 00:59 (or the day before, on a day that lost an hour to DST).
      t -= Math.max(local.minute + 1, (local.hour - 1) * 60 + local.minute + 1) * MINUTE;
      continue;
    }
    if (!cron.hours.includes(local.hour)) {
      t -= (local.minute + 1) * MINUTE;
      continue;
    }
    if (cron.minutes.includes(local.minute)) return t;
    const earlier = cron.minutes.filter((m) => m < local.minute).pop();
    t -= (earlier === undefined ? local.minute + 1 : local.minute - earlier) * MINUTE;
  }
  return undefined;
}
