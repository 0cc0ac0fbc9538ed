/**
 * Address patterns (`policy.protect`, `policy.ignore[].address`, `--target`): an address is split
 * at `/`; in a pattern `*` matches any run of characters inside one segment, `**` (a whole
 * segment) any number of segments, zero included, and every other character is itself. The
 * organization prefix is optional: `sites/Docs/**` and `org_abc/sites/Docs/**` name the same
 * resources of `org_abc`. Hand-written (decision 0033): titles are matched literally, where
 * picomatch or minimatch would read `(`, `[`, `{`, `!` or `+` in a title as glob syntax.
 */
export type AddressMatcher = (address: string) => boolean;

/** Why a pattern is not one, or null: the words a validation error ends with. */
export function addressGlobProblem(pattern: string): string | null {
  if (pattern.trim() === '') return 'expected an address such as sites/Docs or sites/Docs/** (it is empty)';
  const segments = pattern.split('/');
  if (segments.some((s) => s === ''))
    return `expected segments separated by single slashes, without a leading or trailing slash`;
  if (segments.some((s) => s.includes('**') && s !== '**'))
    return `expected ** as a whole segment (sites/**/sections/*), not inside one`;
  return null;
}

function segmentRegExp(segment: string): RegExp {
  const body = segment
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^/]*');
  return new RegExp(`^${body}$`, 'u');
}

/** Does `segments` (from `i`) match `pattern` (from `j`)? `**` takes zero or more segments. */
function matchFrom(pattern: readonly (RegExp | '**')[], segments: readonly string[], j = 0, i = 0): boolean {
  if (j === pattern.length) return i === segments.length;
  const p = pattern[j]!;
  if (p === '**') {
    for (let k = i; k <= segments.length; k += 1) if (matchFrom(pattern, segments, j + 1, k)) return true;
    return false;
  }
  return i < segments.length && p.test(segments[i]!) && matchFrom(pattern, segments, j + 1, i + 1);
}

/** A matcher for one pattern (assumed valid: see `addressGlobProblem`). */
export function addressMatcher(pattern: string): AddressMatcher {
  const parts = pattern.split('/').map((s) => (s === '**' ? ('**' as const) : segmentRegExp(s)));
  return (address) => {
    const segments = address.split('/');
    // With or without the organization's id in front.
    return matchFrom(parts, segments) || (segments.length > 1 && matchFrom(parts, segments.slice(1)));
  };
}

const compiled = new Map<string, AddressMatcher>();

/** Whether `pattern` matches `address` (matchers are compiled once per pattern). */
export function matchesAddress(pattern: string, address: string): boolean {
  let matcher = compiled.get(pattern);
  if (!matcher) {
    if (compiled.size > 1000) compiled.clear();
    compiled.set(pattern, (matcher = addressMatcher(pattern)));
  }
  return matcher(address);
}
