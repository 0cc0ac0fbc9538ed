/**
 * Every flag and environment variable is parsed here, by commander, before a command does any
 * work (issue 27). A bad value stops the command with one line that names the flag or the
 * variable, the value and what is expected:
 *
 *   error: option '--lease-ttl <duration>' value 'abc' from env 'DOCSYNC_LEASE_TTL' is invalid. expected a duration such as 15s, 500ms, 5m or 1h (a plain number is seconds)
 *
 * Defaults are shown in `--help` as they are written (`15s`), and an environment variable is
 * bound to its flag with commander's `.env()`, so it is checked by the same parser.
 */
import { InvalidArgumentError, Option } from 'commander';
import { parseDuration } from './duration.js';

type Parser<T> = (value: string) => T;

/** A whole number from `min` up. */
export const wholeNumber =
  (min: number): Parser<number> =>
  (value) => {
    const n = Number(value.trim());
    if (value.trim() === '' || !Number.isInteger(n) || n < min)
      throw new InvalidArgumentError(`expected a whole number from ${min} up`);
    return n;
  };

/** A duration in milliseconds: `500ms`, `15s`, `5m`, `1h`, or a plain number of seconds. */
export const duration: Parser<number> = (value) => {
  try {
    return parseDuration(value);
  } catch {
    throw new InvalidArgumentError(
      'expected a duration such as 15s, 500ms, 5m or 1h (a plain number is seconds)',
    );
  }
};

/** A duration, checked, kept as written (the daemon parses it again where it is used). */
export const durationText: Parser<string> = (value) => {
  duration(value);
  return value.trim();
};

/** An absolute http(s) URL. */
export const httpUrl: Parser<string> = (value) => {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new InvalidArgumentError('expected an http(s) URL such as https://api.gitbook.com');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new InvalidArgumentError('expected an http(s) URL such as https://api.gitbook.com');
  return value.trim();
};

/** A comma-separated list of http(s) URLs (etcd endpoints). */
export const httpUrls: Parser<string> = (value) => {
  for (const part of value.split(',').map((p) => p.trim()))
    if (part !== '') {
      try {
        httpUrl(part);
      } catch {
        throw new InvalidArgumentError(`expected comma-separated http(s) URLs; '${part}' is not one`);
      }
    }
  return value;
};

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;

/** `true` or `false`. */
export const boolean: Parser<boolean> = (value) => {
  if (value !== 'true' && value !== 'false') throw new InvalidArgumentError('expected true or false');
  return value === 'true';
};

/**
 * An option with its environment variable, parser and default. `shown` is how the default is
 * written in `--help` (`15s` for 15000 ms); without it, commander prints the value.
 */
export function setting<T>(
  flags: string,
  description: string,
  how: { env?: string; parse?: Parser<T>; default?: T; shown?: string; choices?: readonly string[] } = {},
): Option {
  const option = new Option(flags, description);
  if (how.env) option.env(how.env);
  if (how.choices) option.choices(how.choices);
  if (how.parse) option.argParser(how.parse);
  if (how.default !== undefined) option.default(how.default, how.shown);
  return option;
}

/**
 * Environment variables set to the empty string count as unset (as they always have: CI systems
 * pass empty inputs), so commander does not parse them.
 */
export function dropEmptyEnv(env: NodeJS.ProcessEnv = process.env): void {
  for (const [name, value] of Object.entries(env))
    if ((name.startsWith('DOCSYNC_') || name === 'GITHUB_API_URL') && value === '') delete env[name];
}
