/**
 * The UTF-8 bytes of `JSON.stringify(value)`, exactly, built without one string of the whole
 * answer (docs/decisions/0040-emulator-throughput.md).
 *
 * A list answer of a large organization is 80 kB of JSON (a sections page embeds each site
 * space's whole space). A space's emoji makes JSON.stringify's result a two-byte string of 160 kB:
 * V8 builds it in parts, flattens it on first use into its large-object space and encodes it to
 * UTF-8 character by character; that cost the emulator more CPU than building the answer. Here the
 * items of each top-level list are serialized one by one (small strings that die young) and
 * written into one buffer.
 */
export function jsonBytes(value: unknown): Buffer {
  const pieces = splitJson(value);
  if (pieces === undefined) return Buffer.from(JSON.stringify(value), 'utf8');
  let size = 0;
  for (const piece of pieces) size += Buffer.byteLength(piece, 'utf8');
  const bytes = Buffer.allocUnsafe(size);
  let at = 0;
  for (const piece of pieces) at += bytes.write(piece, at, 'utf8');
  return bytes;
}

/** JSON.stringify's output for a plain object (or array) holding lists, in pieces; undefined for anything else. */
function splitJson(value: unknown): string[] | undefined {
  if (typeof value !== 'object' || value === null || !isPlain(value)) return undefined;
  if (Array.isArray(value)) return listPieces(value as unknown[], []);
  const pieces: string[] = [];
  let head = '{';
  for (const key of Object.keys(value)) {
    const field = (value as Record<string, unknown>)[key];
    if (Array.isArray(field) && isPlain(field)) {
      pieces.push(`${head}${JSON.stringify(key)}:`);
      listPieces(field as unknown[], pieces);
      head = ',';
      continue;
    }
    // As JSON.stringify does: a property that has no JSON (undefined, a function) is left out.
    const json = JSON.stringify(field) as string | undefined;
    if (json === undefined) continue;
    pieces.push(`${head}${JSON.stringify(key)}:${json}`);
    head = ',';
  }
  pieces.push(head === '{' ? '{}' : '}');
  return pieces;
}

/** A list's JSON in pieces: each item on its own (`null` for an item that has no JSON, as in JSON.stringify). */
function listPieces(items: readonly unknown[], pieces: string[]): string[] {
  pieces.push('[');
  for (let i = 0; i < items.length; i += 1)
    pieces.push(`${i > 0 ? ',' : ''}${(JSON.stringify(items[i]) as string | undefined) ?? 'null'}`);
  pieces.push(']');
  return pieces;
}

/** An object JSON.stringify serializes key by key: a plain object or array, with no toJSON of its own. */
function isPlain(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as unknown;
  return (
    (proto === Object.prototype || proto === Array.prototype || proto === null) &&
    typeof (value as { toJSON?: unknown }).toJSON !== 'function'
  );
}
