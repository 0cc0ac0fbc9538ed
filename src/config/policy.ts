import type { Policy, Threshold, Thresholds } from '../model/desired.js';
import type { ConfigFile } from './schema.js';

export const DEFAULT_MAX_DELETES = 10;

type PolicyConfig = NonNullable<ConfigFile['policy']>;
type ThresholdConfig = NonNullable<PolicyConfig['maxUpdates']>;

function threshold(value: number | string): Threshold {
  return typeof value === 'number' ? { count: value } : { percent: Number.parseFloat(value) };
}

/** `10`, `"5%"` or `{ default, <kind> }` as thresholds; undefined when nothing is set. */
function thresholds(value: ThresholdConfig | undefined): Thresholds | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object') return { all: threshold(value) };
  const { default: all, ...byKind } = value;
  const kinds = Object.fromEntries(
    Object.entries(byKind).flatMap(([k, v]) => (v === undefined ? [] : [[k, threshold(v)]])),
  );
  return {
    ...(all !== undefined ? { all: threshold(all) } : {}),
    ...(Object.keys(kinds).length > 0 ? { kinds } : {}),
  };
}

/** The normalized policy of one file's `policy:` (defaults applied). */
export function normalizePolicy(policy: PolicyConfig | undefined): Policy {
  const deletes = thresholds(policy?.maxDeletes);
  const updates = thresholds(policy?.maxUpdates);
  const all = deletes?.all;
  return {
    prune: policy?.prune ?? false,
    // The count that applies when no percentage does.
    maxDeletes: all && 'count' in all ? all.count : DEFAULT_MAX_DELETES,
    ...(policy?.pruneMembers !== undefined ? { pruneMembers: policy.pruneMembers } : {}),
    ...(policy?.minAdmins !== undefined ? { minAdmins: policy.minAdmins } : {}),
    ...(policy?.brokenLinks !== undefined ? { brokenLinks: policy.brokenLinks } : {}),
    // A plain count is `maxDeletes` alone, as before.
    ...(deletes && !(all && 'count' in all && deletes.kinds === undefined) ? { deletes } : {}),
    ...(updates ? { updates } : {}),
    ...(policy?.protect?.length
      ? { protect: policy.protect.map((address, i) => ({ address, rule: `policy.protect[${i}]` })) }
      : {}),
    ...(policy?.ignore?.length
      ? {
          ignore: policy.ignore.map((r, i) => ({
            fields: r.fields,
            ...(r.kind !== undefined ? { kind: r.kind } : {}),
            ...(r.address !== undefined ? { address: r.address } : {}),
            rule: `policy.ignore[${i}]`,
          })),
        }
      : {}),
  };
}
