/** A kind's entries in a desired or live organization, a site, or a config file (undefined: unmanaged). */
export function listIn(holder: object, key: string): unknown[] | undefined {
  return (holder as Record<string, unknown>)[key] as unknown[] | undefined;
}

/** The value a kind keeps under its key in a holder (undefined: unmanaged, or not read). */
export function valueIn(holder: object, key: string): unknown {
  return (holder as Record<string, unknown>)[key];
}
