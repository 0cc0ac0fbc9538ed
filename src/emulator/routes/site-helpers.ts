import { badRequest } from '../errors.js';
import type { EmuOrganization, EmuSite } from '../state.js';
import { findOrg, findSite } from '../store.js';
import { asBody } from '../validate.js';
import type { RouteDeps } from './context.js';

export function siteOf(
  deps: RouteDeps,
  params: Record<string, string>,
): { org: EmuOrganization; site: EmuSite } {
  const org = findOrg(deps.state(), params.orgId!);
  return { org, site: findSite(org, params.siteId!, deps.memo) };
}

/** Parse a move body: exactly one of `before`/`after`, a reference of the given type and key. */
export function parsePosition(
  body: unknown,
  type: string,
  key: string,
): { where: 'before' | 'after'; id: string } {
  const position = asBody(asBody(body, true)['position'], true);
  const entries = (['before', 'after'] as const).filter((w) => position[w] !== undefined);
  if (entries.length !== 1) throw badRequest('position: exactly one of before or after is required');
  const where = entries[0]!;
  const ref = asBody(position[where], true);
  if (ref['type'] !== type) throw badRequest(`position.${where}.type: must be ${type}`);
  const id = ref[key];
  if (typeof id !== 'string') throw badRequest(`position.${where}.${key}: is required`);
  return { where, id };
}
