import { z } from 'zod';
import { nullish } from '../model/schema.js';
import { kindDrafts } from '../diff/builder.js';
import { problem, type DiffContext } from '../diff/context.js';
import { changedFields } from '../diff/draft.js';
import type { Patch } from '../model/change.js';
import type { MemberRole } from '../model/kinds.js';
import { defined, Role } from './fields.js';
import type { ExportContext } from './types.js';
import type { ObjectKind } from './value-shapes.js';
import type { KindExamples } from './examples.js';

/** The settings of an organization: one object, updated in place by one call. */

export type OrganizationOp = { type: 'update-organization'; org: string; patch: Patch };

const hostnamePattern = /^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$/;

const Config = z
  .strictObject({
    title: z.string().min(2).max(255).optional(),
    emailDomains: z.array(z.string().min(1).max(253)).optional(),
    hostname: z
      .string()
      .min(3)
      .max(32)
      .regex(hostnamePattern, 'must be 3 to 32 of a-z, 0-9 and -')
      .optional(),
    defaultRole: Role.nullable().optional(),
    defaultContent: z
      .strictObject({ site: z.string().min(1).describe('Title of a site.') })
      .nullable()
      .optional(),
    inviteLinks: z
      .boolean()
      .optional()
      .describe(
        'Whether the organization allows invite links at all (a switch). The links themselves are the top-level inviteLinks list.',
      ),
    logo: z
      .url()
      .max(2048)
      .nullable()
      .optional()
      .describe('URL of the logo; null removes it. Compared with the `urls.logo` the API answers.'),
    sso: z.boolean().optional(),
    ai: z.boolean().optional(),
  })
  .describe('Organization settings.');
type Config = z.infer<typeof Config>;

export type DesiredOrganizationSettings = {
  title?: string;
  emailDomains?: string[];
  hostname?: string;
  defaultRole?: MemberRole | null;
  /** The site shown by default, by title; null removes it. */
  defaultContent?: { site: string } | null;
  inviteLinks?: boolean;
  /** URL of the logo; null removes it. */
  logo?: string | null;
  sso?: boolean;
  ai?: boolean;
};

export type LiveOrganizationSettings = {
  title: string;
  emailDomains: string[];
  hostname: string | null;
  defaultRole: MemberRole | null;
  /** Site id of the default content, or null. */
  defaultContent: string | null;
  inviteLinks: boolean;
  /** `urls.logo` of the answer, or null. */
  logo: string | null;
  sso: boolean;
  ai: boolean;
};

const Answer = z.looseObject({
  id: z.string(),
  title: z.string(),
  emailDomains: z.array(z.string()).default([]),
  hostname: nullish(z.string()),
  defaultRole: nullish(Role),
  defaultContent: nullish(z.looseObject({ site: z.string().optional() })),
  inviteLinks: z.boolean().default(false),
  sso: nullish(z.boolean()),
  ai: nullish(z.boolean()),
  urls: z.looseObject({ logo: nullish(z.string()) }).optional(),
});
type Answer = z.infer<typeof Answer>;

const ROUTE = '/orgs/{org}';

/** One update with every field that differs; the default content names a site by title. */
function diff(ctx: DiffContext, d: DesiredOrganizationSettings, l: LiveOrganizationSettings): void {
  const drafts = kindDrafts<OrganizationOp>(ctx, 'organization');
  const changed = changedFields(d, l, [
    'title',
    'emailDomains',
    'hostname',
    'defaultRole',
    'inviteLinks',
    'logo',
    'sso',
    'ai',
  ]);
  const before = { ...(changed?.before ?? {}) };
  const after = { ...(changed?.after ?? {}) };
  const patch: Record<string, unknown> = { ...after };
  const deps: (string | undefined)[] = [];
  if (d.defaultContent !== undefined) {
    if (d.defaultContent === null) {
      if (l.defaultContent !== null) {
        before['defaultContent'] = l.defaultContent;
        after['defaultContent'] = null;
        patch['defaultContent'] = null;
      }
    } else {
      const site = ctx.siteRefs.get(d.defaultContent.site);
      if (!site)
        problem(
          ctx,
          `settings.defaultContent names the site "${d.defaultContent.site}", which does not exist`,
          'unknown-reference',
        );
      else if (!('id' in site.ref) || site.ref.id !== l.defaultContent) {
        before['defaultContent'] = l.defaultContent;
        after['defaultContent'] = { site: d.defaultContent.site };
        patch['defaultContent'] = { type: 'site', site: { $ref: site.ref } };
        deps.push(site.createKey);
      }
    }
  }
  if (Object.keys(after).length === 0) return;
  const addr = `${ctx.org}/settings`;
  drafts.update({
    address: addr,
    before,
    after,
    deps,
    op: { type: 'update-organization', org: ctx.org, patch },
  });
}

function exportEntry(st: LiveOrganizationSettings, ctx: ExportContext): Config {
  const sites = (ctx.org['sites'] ?? []) as { id: string; title: string }[];
  const defaultSite = st.defaultContent ? sites.find((x) => x.id === st.defaultContent) : undefined;
  return {
    title: st.title,
    emailDomains: st.emailDomains,
    ...(st.hostname !== null ? { hostname: st.hostname } : {}),
    defaultRole: st.defaultRole,
    ...(defaultSite
      ? { defaultContent: { site: defaultSite.title } }
      : st.defaultContent === null
        ? { defaultContent: null }
        : {}),
    inviteLinks: st.inviteLinks,
    ...(st.logo !== null ? { logo: st.logo } : {}),
    sso: st.sso,
    ai: st.ai,
  };
}

export const organizationKind: ObjectKind<
  'settings',
  Config,
  DesiredOrganizationSettings,
  LiveOrganizationSettings,
  OrganizationOp,
  'organization'
> = {
  kind: 'organization',
  key: 'settings',
  config: Config,
  docs: {
    settings: {
      title: 'organization settings',
      notes: [
        'One object per organization; each key present is managed, each key omitted is left alone.',
        '`logo` is compared with the `urls.logo` the API answers. The official document describes that field as the URL of the logo and does not say the API copies it elsewhere; if a server answered another URL than the one set, every plan would show the logo as changed: then write the URL it answers, or omit `logo`.',
      ],
      example: { title: 'Example Inc', defaultRole: 'read', inviteLinks: false },
    },
    'settings.defaultContent': { title: 'default content' },
  },
  normalize: (s) => defined({ ...s }),
  references: (s: DesiredOrganizationSettings) =>
    s.defaultContent?.site === undefined
      ? []
      : [
          {
            target: 'site',
            id: s.defaultContent.site,
            path: ['defaultContent', 'site'],
            holder: 'settings.defaultContent',
          },
        ],
  read: {
    call: (org) => ({ method: 'GET', route: ROUTE, params: { org }, expect: [200], answer: Answer }),
    live: (o: Answer): LiveOrganizationSettings => ({
      title: o.title,
      emailDomains: o.emailDomains,
      hostname: o.hostname ?? null,
      defaultRole: o.defaultRole ?? null,
      defaultContent: o.defaultContent?.site ?? null,
      inviteLinks: o.inviteLinks,
      logo: o.urls?.logo ?? null,
      sso: o.sso ?? false,
      ai: o.ai ?? false,
    }),
  },
  diff,
  export: { file: 'organization.yaml', header: 'Organization settings', entry: exportEntry },
  ops: {
    'update-organization': {
      call: (op, r) => ({
        method: 'PATCH',
        route: ROUTE,
        params: { org: op.org },
        body: r.patch(op.patch),
        expect: [200],
        answer: Answer,
      }),
    },
  },
  examples: {
    pairs: [
      {
        config: { title: 'Acme Docs', defaultRole: 'read', inviteLinks: true },
        seed: { title: 'Acme Docs', defaultRole: 'read', settings: { inviteLinks: true } },
        changed: { title: 'Acme', defaultRole: 'edit', inviteLinks: false },
      },
      {
        config: { ai: false, hostname: 'acme-docs', logo: 'https://example.com/logo.png' },
        seed: { hostname: 'acme-docs', logo: 'https://example.com/logo.png', settings: { ai: false } },
        changed: { ai: true, hostname: 'acme-docs', logo: 'https://example.com/logo-v2.png' },
      },
    ],
  } satisfies KindExamples<Config>,
};
