import { CUSTOMIZATION_ATOMIC, OVERRIDE_NULLABLE } from './site-customization.js';
import {
  changeFields,
  nonDefault,
  sparseChanges,
  sparseLeaves,
  valueAtPath,
  withValueAt,
  type SparseChange,
} from './sparse.js';
import { same } from '../diff/draft.js';
import type { SpacePlacement, Structure } from './site-structure-types.js';

/**
 * A site space's customization overrides, sparse (decision 0037): the keys its entry gives whose
 * live value (the site's, overrides set) differs; one PATCH of those keys, after its creation. A
 * key given as null has no override: it differs when the live value is not the site's, and the
 * PATCH sends null. `customization: null`: no overrides at all (removeOverrides).
 */
export function overrideCustomization(s: Structure, p: SpacePlacement): void {
  const desired = p.d.customization;
  if (desired === null) return removeOverrides(s, p);
  if (!desired) return;
  const live = p.live?.customization;
  const changes = sparseChanges(desired, live, CUSTOMIZATION_ATOMIC).filter(
    (c) => c.after !== null || (live !== undefined && !same(c.before, siteValue(s, c.path))),
  );
  if (changes.length === 0) return;
  const { before, after } = changeFields(changes);
  // What the site space shows now: its document, or (a site space the plan creates) the site's.
  const shown = live ?? s.siteDoc ?? {};
  const overrides = changes.reduce<Record<string, unknown>>((doc, c) => overrideAt(doc, shown, c), {});
  s.siteSpaces.update({
    address: `${p.addr}/customization`,
    before: p.live ? before : null,
    after,
    deps: [p.createKey],
    op: { type: 'set-site-space-customization', org: s.org, site: s.site.ref, siteSpace: p.ref, overrides },
  });
}

/**
 * The PATCH body with one changed key set. The PATCH takes the values of `OVERRIDE_NULLABLE`
 * whole (a themed color needs both `light` and `dark`), so a key below one of them is sent with
 * that whole value: what the body already holds, else what the site space shows, with the key set.
 */
function overrideAt(doc: Record<string, unknown>, shown: Record<string, unknown>, c: SparseChange) {
  const path = c.path.split('.');
  const whole = path.findIndex((_, i) => OVERRIDE_NULLABLE.has(path.slice(0, i + 1).join('.'))) + 1;
  if (whole === 0 || whole === path.length) return withValueAt(doc, path, c.after);
  const at = path.slice(0, whole);
  const current = valueAtPath(doc, at) ?? valueAtPath(shown, at);
  const value = current !== null && typeof current === 'object' ? (current as Record<string, unknown>) : {};
  return withValueAt(doc, at, withValueAt(value, path.slice(whole), c.after));
}

/** The site's value at a deep path (what a site space without that override shows). */
const siteValue = (s: Structure, path: string) => valueAtPath(s.siteDoc ?? {}, path.split('.')) ?? null;

/**
 * `customization: null`: a live site space whose document differs from the site's has overrides,
 * removed by one DELETE, shown as the deletion of `…/customization` with the overrides it removes
 * (counted as a deletion, like every `-` of a plan). A site space the plan creates has none.
 */
function removeOverrides(s: Structure, p: SpacePlacement): void {
  const live = p.live?.customization;
  if (!p.live || !live || !s.siteDoc) return;
  const present = sparseLeaves(nonDefault(live, s.siteDoc, CUSTOMIZATION_ATOMIC), CUSTOMIZATION_ATOMIC);
  if (present.length === 0) return;
  const paths = present.map((l) => l.path.join('.'));
  s.siteSpaces.delete({
    address: `${p.addr}/customization`,
    before: changeFields(present.map((l, i) => ({ path: paths[i]!, before: l.value, after: null }))).before,
    note: `removes its overrides (${paths.join(', ')}): the site's customization applies`,
    op: { type: 'delete-site-space-customization', org: s.org, site: s.site.ref, siteSpace: p.ref },
  });
}
