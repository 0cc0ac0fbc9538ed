import { z } from 'zod';
import { kindDrafts } from '../diff/builder.js';
import { warn, type DiffContext } from '../diff/context.js';
import { same } from '../diff/draft.js';
import type { SiteScope } from '../diff/site-scope.js';
import type { ApiCapabilities } from '../model/capabilities.js';
import { certificateHash } from '../model/certificate.js';
import type { Ref } from '../model/change.js';
import { FINGERPRINT } from '../model/credentials.js';
import { dict } from '../model/dict.js';
import type { KindExamples } from './examples.js';
import type { SiteFacet } from './value-shapes.js';
import type { ApiCall, Credentials } from './types.js';

/**
 * A site's visitor authentication (today's API: `GET`/`PATCH /orgs/{org}/sites/{site}/publishing/auth`,
 * `POST …/publishing/auth/regenerate`). The private key the site signs visitor tokens with is made by
 * the API and is a credential: it reaches the model, plans and export only as its fingerprint. The
 * config may say which key it expects (read through a confined `file:`/`env:`, compared by
 * fingerprint, never sent) and ask for a new key by naming the fingerprint of the one to replace
 * (`regenerate`): stateless, so the request is done once (decision 0037). A key of the site entry.
 */

export type SiteVisitorAuthOp =
  | { type: 'update-visitor-auth'; org: string; site: Ref; patch: Record<string, unknown> }
  | { type: 'regenerate-visitor-auth-key'; org: string; site: Ref };

const ROUTE = '/orgs/{org}/sites/{site}/publishing/auth';
const REGENERATE = '/orgs/{org}/sites/{site}/publishing/auth/regenerate';
const credentials: Credentials = { fields: ['privateKey'] };

/** The limit of a private key read from a file or a variable, in characters. */
export const PRIVATE_KEY_MAX = 4096;

/** What a private key read from a file or a variable must be: one token, no spaces. */
export function privateKeyProblem(text: string): string | undefined {
  const key = text.trim();
  return key.length > 0 && !/\s/.test(key) ? undefined : 'is not a private key (one line, without spaces)';
}

/** A key's fingerprint: `sha256:` and 12 hex digits of its SHA-256, as plans and export show it. */
const fingerprintOf = (key: string) => `sha256:${certificateHash(key).slice(0, 12)}`;

const Indirect = z.union([
  z.strictObject({
    file: z
      .string()
      .min(1)
      .describe('Path of a file holding the key, relative to this YAML file, inside the config repository.'),
  }),
  z.strictObject({
    env: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
      .meta({ pattern: '^DOCSYNC_SECRET_[A-Za-z0-9_]+$' })
      .describe('Name of an environment variable holding the key; must start with DOCSYNC_SECRET_.'),
  }),
]);

const url = z.url().max(2048).nullable();

const Config = z.strictObject({
  backend: z
    .enum(['custom', 'integration'])
    .optional()
    .describe('Who authenticates visitors. Omitted: unmanaged.'),
  fallbackURL: url
    .optional()
    .describe('Where a visitor goes when authentication fails; null: none. Omitted: unmanaged.'),
  logoutURL: url
    .optional()
    .describe('Where a visitor is logged out of the custom backend; null: none. Omitted: unmanaged.'),
  privateKey: Indirect.optional().describe(
    'The key your backend signs visitor tokens with, read from a file or a variable: compared with the live key by fingerprint, never sent nor shown. A different live key is a warning ("secret changed").',
  ),
  regenerate: z
    .string()
    .regex(FINGERPRINT, 'must be a fingerprint like sha256:3f2a9c0b1d4e (as the plan shows the live key)')
    .optional()
    .describe(
      'Ask for a new private key: the fingerprint of the live key to replace (as the plan shows it). The plan regenerates while the live key has this fingerprint, so the request is done once.',
    ),
});
type Config = z.infer<typeof Config>;

/** The expected key is desired by its fingerprint only. */
export type DesiredVisitorAuth = {
  backend?: 'custom' | 'integration';
  fallbackURL?: string | null;
  logoutURL?: string | null;
  /** The fingerprint of the key the config reads. */
  privateKey?: string;
  regenerate?: string;
};

/** The private key as its fingerprint. */
export type LiveVisitorAuth = {
  backend: 'custom' | 'integration';
  fallbackURL: string | null;
  logoutURL: string | null;
  privateKey: string;
};

const Answer = z.looseObject({
  backend: z.enum(['custom', 'integration']),
  privateKey: z.string(),
  fallbackURL: z.string().nullable().optional(),
  logoutURL: z.string().nullable().optional(),
});
type Answer = z.infer<typeof Answer>;

const FIELDS = ['backend', 'fallbackURL', 'logoutURL'] as const;

function call(op: SiteVisitorAuthOp, r: { ref: (x: Ref) => string }, method: 'PATCH' | 'POST'): ApiCall {
  return {
    method,
    route: method === 'PATCH' ? ROUTE : REGENERATE,
    params: { org: op.org, site: r.ref(op.site) },
    ...(op.type === 'update-visitor-auth' ? { body: op.patch } : {}),
    expect: [200],
    answer: Answer,
    credentials,
  };
}

function diff(
  ctx: DiffContext,
  site: SiteScope,
  siteTitle: string,
  d: DesiredVisitorAuth,
  l: LiveVisitorAuth | null | undefined,
) {
  const drafts = kindDrafts<SiteVisitorAuthOp>(ctx, 'site-visitor-auth');
  const before = dict<unknown>();
  const after = dict<unknown>();
  for (const key of FIELDS) {
    if (d[key] === undefined || (l && same(d[key], l[key]))) continue;
    if (l) before[key] = l[key];
    after[key] = d[key];
  }
  const addr = `${site.addr}/visitor-auth`;
  if (Object.keys(after).length > 0)
    drafts.update({
      address: addr,
      before: l ? before : null,
      after,
      deps: [site.createKey],
      // The API requires the backend in every update (a new site's is custom).
      op: {
        type: 'update-visitor-auth',
        org: ctx.org,
        site: site.ref,
        patch: { backend: l?.backend ?? 'custom', ...after },
      },
    });
  // A site this plan creates has no key yet: nothing to compare or regenerate.
  if (!l) return;
  const regenerating = d.regenerate !== undefined && d.regenerate === l.privateKey;
  if (regenerating)
    drafts.update({
      address: `${addr}/private-key`,
      before: { privateKey: l.privateKey },
      after: { privateKey: '(regenerated)' },
      deps: [site.createKey],
      op: { type: 'regenerate-visitor-auth-key', org: ctx.org, site: site.ref },
    });
  else if (d.privateKey !== undefined && d.privateKey !== l.privateKey)
    warn(
      ctx,
      `site "${siteTitle}": visitorAuth.privateKey (secret changed): the live key (${l.privateKey}) is not the one the config reads (${d.privateKey}); the API cannot set a key: store the live key where the config reads it, or ask for a new one with "regenerate: ${l.privateKey}"`,
    );
}

const absent = (caps: ApiCapabilities) =>
  `sites[].visitorAuth is not in this API (${caps.flavor}): only today's API (--api-flavor current) has a site's visitor authentication`;

export const siteVisitorAuthKind: SiteFacet<
  'visitorAuth',
  Config,
  DesiredVisitorAuth,
  LiveVisitorAuth | null,
  SiteVisitorAuthOp,
  'site-visitor-auth'
> = {
  kind: 'site-visitor-auth',
  key: 'visitorAuth',
  absentIn: ['seed'],
  absent,
  credentials,
  config: Config,
  describe:
    "The site's visitor authentication (today's API): backend and URLs, the private key it expects (never shown) and an explicit request for a new key.",
  docs: {
    'sites[].visitorAuth': {
      title: 'visitor authentication',
      notes: [
        'Only the keys given are managed (`backend`, `fallbackURL`, `logoutURL`); the plan shows each one that changes.',
        'The private key is made by the API and never leaves docsync: reads register it with the redactor, and plans, logs and export show only its fingerprint (`sha256:` and 12 hex digits).',
        '`privateKey: { env: DOCSYNC_SECRET_… }` (or `{ file: … }`, confined as SAML certificates are) says which key your backend signs with: a different live key is a warning naming both fingerprints ("secret changed"); the API cannot set a key, so nothing is planned for it.',
        '`regenerate: sha256:…` asks for a new key: the plan regenerates it while the live key has that fingerprint (one `POST …/publishing/auth/regenerate`), then the new key has another and nothing more is planned. Copy the fingerprint from a plan.',
        'Export writes the backend and URLs when they are not the defaults (custom, none), never the key.',
        'For example `visitorAuth: { backend: custom, fallbackURL: https://example.com/login, privateKey: { env: DOCSYNC_SECRET_DOCS_VA_KEY } }`.',
      ],
    },
    'sites[].visitorAuth.privateKey': { title: 'the private key your backend signs with (never shown)' },
  },
  normalize: (c, indirect) => {
    const out: DesiredVisitorAuth = {};
    for (const key of FIELDS) if (c[key] !== undefined) Object.assign(out, { [key]: c[key] });
    if (indirect) out.privateKey = `sha256:${indirect.sha256.slice(0, 12)}`;
    if (c.regenerate !== undefined) out.regenerate = c.regenerate;
    return out;
  },
  read: {
    call: (org, site) => ({
      method: 'GET',
      route: ROUTE,
      params: { org, site },
      expect: [200],
      answer: Answer,
      credentials,
    }),
    live: (a: Answer): LiveVisitorAuth => ({
      backend: a.backend,
      fallbackURL: a.fallbackURL ?? null,
      logoutURL: a.logoutURL ?? null,
      privateKey: fingerprintOf(a.privateKey),
    }),
  },
  diff,
  export: (l, caps) => {
    if (caps.flavor === 'seed' || !l) return undefined;
    const out: Config = {
      ...(l.backend !== 'custom' ? { backend: l.backend } : {}),
      ...(l.fallbackURL !== null ? { fallbackURL: l.fallbackURL } : {}),
      ...(l.logoutURL !== null ? { logoutURL: l.logoutURL } : {}),
    };
    return Object.keys(out).length > 0 ? out : undefined;
  },
  ops: {
    'update-visitor-auth': { call: (op, r) => call(op, r, 'PATCH') },
    'regenerate-visitor-auth-key': { call: (op, r) => call(op, r, 'POST') },
  },
  examples: {
    flavor: 'current',
    pairs: [
      {
        config: { backend: 'custom', fallbackURL: 'https://example.com/login' },
        seed: { visitorAuth: { backend: 'custom', fallbackURL: 'https://example.com/login' } },
        changed: { backend: 'custom', fallbackURL: 'https://example.com/sign-in' },
      },
    ],
  } satisfies KindExamples<Config>,
};
