/**
 * A string-keyed map as a plain object without a prototype: for every lookup built from config or
 * API data (names, titles, user ids) where an object is needed (JSON, plan fields). A key named
 * `__proto__`, `constructor` or `prototype` is then an ordinary key: it can neither change the
 * object's prototype nor find an inherited member. Use `Map` where no object is needed.
 */
export function dict<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/** Keys that would touch an object's prototype when used as a property name on a plain object. */
export const RESERVED_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** Whether a name is one of them (config refuses them as keys, names and titles). */
export function isReservedKey(name: string): boolean {
  return RESERVED_KEYS.has(name);
}
