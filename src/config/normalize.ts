import type { CertificateRef, SyncWindowPolicy } from '../model/desired.js';
import { parseWindowDuration } from '../policy/sync-windows.js';
import type { DesiredOrganization, DesiredState } from '../reconcile/index.js';
import {
  anyListKinds,
  anyObjectKinds,
  anySpaceFacets,
  collectionKind,
  listIn,
  valueIn,
} from '../kinds/registry.js';
import { defined } from '../kinds/fields.js';
import type { ConfigFile } from './schema.js';
import { entryControlsOf } from './entry-controls.js';
import { normalizePolicy } from './policy.js';

export { DEFAULT_MAX_DELETES } from './policy.js';

type ConfigSyncWindow = NonNullable<NonNullable<ConfigFile['policy']>['syncWindows']>[number];

function syncWindow(w: ConfigSyncWindow): SyncWindowPolicy {
  return {
    kind: w.kind,
    schedule: w.schedule,
    duration: w.duration,
    durationMs: parseWindowDuration(w.duration),
    manualSync: w.manualSync ?? false,
    timeZone: w.timeZone ?? 'UTC',
  };
}

type ConfigSpace = NonNullable<ConfigFile['spaces']>[number];
type ConfigCollection = NonNullable<ConfigFile['collections']>[number];

function desiredSpace(s: ConfigSpace): NonNullable<DesiredOrganization['spaces']>[number] {
  return defined({
    id: s.id,
    title: s.title,
    emoji: s.emoji,
    editMode: s.editMode,
    defaultLevel: s.defaultLevel,
    parent: s.parent,
    ...Object.fromEntries(
      anySpaceFacets.map((f) => {
        const value = valueIn(s, f.key);
        return [f.key, value === undefined ? undefined : f.normalize(value)];
      }),
    ),
  });
}

function desiredCollection(c: ConfigCollection): NonNullable<DesiredOrganization['collections']>[number] {
  return defined({
    title: c.title,
    id: c.id,
    previously: c.previously,
    description: c.description,
    defaultLevel: c.defaultLevel,
    parent: c.parent,
    access: c.access === undefined ? undefined : collectionKind.grants.normalize(c.access),
  });
}

/**
 * Merge the files of each organization (in file order) into the normalized desired state:
 * defaults applied, member shorthand expanded, list order kept. Assumes `checkSemantics` passed.
 */
export function normalize(
  files: ConfigFile[],
  /** Certificates the loader read, by the config entry that names them. */
  certificates: Map<object, CertificateRef> = new Map(),
  /** Documents the loader read (an OpenAPI spec's `file:`), their text by the config entry. */
  documents: Map<object, string> = new Map(),
): DesiredState {
  const orgs = new Map<string, DesiredOrganization>();
  // One for every entry: the kinds only read it.
  const extras = { certificates, documents };
  for (const file of files) {
    let org = orgs.get(file.organization);
    if (!org) {
      org = { id: file.organization, policy: normalizePolicy(undefined) };
      orgs.set(file.organization, org);
    }
    if (file.policy)
      org.policy = {
        ...normalizePolicy(file.policy),
        ...(file.policy.syncWindows ? { syncWindows: file.policy.syncWindows.map(syncWindow) } : {}),
      };
    if (file.suspended) org.suspended = true;
    // Each list appended to in place: a copy of the organization's list per file, longer at each
    // file, cost time and memory growing with the square of the files (665 files, a site each).
    if (file.spaces) {
      const spaces = (org.spaces ??= []);
      for (const s of file.spaces) spaces.push(desiredSpace(s));
    }
    // The kinds' loops indexed: `for…of` made an iterator result per kind and entry until the
    // function was optimized (they run for each file, most of them before it is; issue 33).
    for (let k = 0; k < anyObjectKinds.length; k += 1) {
      const kind = anyObjectKinds[k]!;
      const entry = valueIn(file, kind.key);
      if (entry !== undefined) (org as Record<string, unknown>)[kind.key] = kind.normalize(entry);
    }
    if (file.collections) {
      const collections = (org.collections ??= []);
      for (const c of file.collections) collections.push(desiredCollection(c));
    }
    for (let k = 0; k < anyListKinds.length; k += 1) {
      const kind = anyListKinds[k]!;
      const entries = listIn(file, kind.key);
      if (!entries) continue;
      const lists = org as unknown as Record<string, unknown[] | undefined>;
      const list = (lists[kind.key] ??= []);
      for (let i = 0; i < entries.length; i += 1) list.push(kind.normalize(entries[i], extras));
    }
  }
  // Entries' `ignore` and `protect` (any file of the organization) join the policy's rules.
  for (const file of files) {
    const entry = entryControlsOf(file);
    const org = orgs.get(file.organization);
    if (!entry || !org) continue;
    if (entry.ignore.length > 0) org.policy.ignore = [...(org.policy.ignore ?? []), ...entry.ignore];
    if (entry.protect.length > 0) org.policy.protect = [...(org.policy.protect ?? []), ...entry.protect];
  }
  return { organizations: [...orgs.values()] };
}
