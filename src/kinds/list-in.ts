/** A kind's entries in a desired or live organization, a site, or a config file (undefined: unmanaged). */
export function listIn(holder: object, key: string): unknown[] | undefined {
  return (holder as Record<string, unknown>)[key] as unknown[] | undefined;
}
