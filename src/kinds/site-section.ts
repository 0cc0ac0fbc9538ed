import { z } from 'zod';
import { nullish } from '../api/schema.js';
import { SiteSpace } from './site-space.js';
import type { Patch, Position, Ref } from '../model/change.js';
import { deleteCall, structureMove, type KindModule, type OpOutput } from './types.js';

/** The API's answer for one (lenient: unknown fields allowed). */
export const SiteSection = z.looseObject({
  id: z.string(),
  title: z.string(),
  path: z.string(),
  description: nullish(z.string()),
  default: nullish(z.boolean()),
  condition: nullish(z.string()),
  sectionGroup: nullish(z.string()),
  icon: nullish(z.string()),
  siteSpaces: z.array(SiteSpace).default([]),
});
export type SiteSection = z.infer<typeof SiteSection>;

export type SectionOp =
  | { type: 'create-section'; org: string; site: Ref; spaceId: string; title?: string }
  | { type: 'update-section'; org: string; site: Ref; section: Ref; patch: Patch }
  | { type: 'delete-section'; org: string; site: Ref; section: Ref }
  | { type: 'move-section'; org: string; site: Ref; section: Ref; position: Position };

const LIST = '/orgs/{org}/sites/{site}/sections';
const ROUTE = '/orgs/{org}/sites/{site}/sections/{section}';

/** A created section yields its id and the id of its first site space (`siteSpace:<spaceId>`). */
function sectionOutput(section: SiteSection): OpOutput {
  const out: OpOutput = { id: section.id };
  for (const ss of section.siteSpaces) out[`siteSpace:${ss.space.id}`] = ss.id;
  return out;
}

/** A section of a site, by path; the API creates it from a space. */
export const sectionKind: KindModule<SectionOp> = {
  kind: 'site-section',
  ops: {
    'create-section': {
      call: (op, r) => ({
        method: 'POST',
        route: LIST,
        params: { org: op.org, site: r.ref(op.site) },
        body: { spaceId: op.spaceId, ...(op.title !== undefined ? { title: op.title } : {}) },
        expect: [201],
        answer: SiteSection,
        create: true,
      }),
      output: sectionOutput,
      adopt: {
        list: (op, r) => ({ route: LIST, params: { org: op.org, site: r.ref(op.site) }, item: SiteSection }),
        find: (s: SiteSection, op) => s.siteSpaces.some((ss) => ss.space.id === op.spaceId),
        output: sectionOutput,
      },
    },
    'update-section': {
      call: (op, r) => ({
        method: 'PATCH',
        route: ROUTE,
        params: { org: op.org, site: r.ref(op.site), section: r.ref(op.section) },
        body: r.patch(op.patch),
        expect: [200, 204],
      }),
    },
    'delete-section': {
      call: (op, r, caps) =>
        deleteCall(ROUTE, { org: op.org, site: r.ref(op.site), section: r.ref(op.section) }, caps),
    },
    'move-section': {
      call: (op, r, caps) =>
        structureMove(
          caps,
          r,
          { org: op.org, site: op.site, item: op.section, position: op.position },
          { type: 'site-section' },
          {
            route: '/orgs/{org}/sites/{site}/sections/{section}/move',
            param: 'section',
            type: 'site-section',
            key: 'siteSection',
          },
        ),
    },
  },
};
