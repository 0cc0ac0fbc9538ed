import { z } from 'zod';
import { kindDrafts } from '../diff/builder.js';
import { countLive, pairByIdentity, problem, type DiffContext } from '../diff/context.js';
import { liveRef, same } from '../diff/draft.js';
import { CERTIFICATE_MAX, certificateHash, pemCertificateProblem } from '../model/certificate.js';
import type { Patch, Ref } from '../model/change.js';
import type { MemberRole } from '../model/kinds.js';
import { defined, fileSlug, duplicatesOf, pin, previously, Role } from './fields.js';
import type { CertificateRef } from '../model/desired.js';
import { deleteCall, idOutput, type ExportContext } from './types.js';
import type { ListKind } from './shapes.js';
import { dict } from '../model/dict.js';
import type { KindExamples } from './examples.js';

/** SAML providers of an organization, by label (or pinned id). Everything docsync knows about the kind. */

export type SamlProviderOp =
  | { type: 'create-saml-provider'; org: string; body: Patch }
  | { type: 'update-saml-provider'; org: string; provider: Ref; patch: Patch }
  | { type: 'delete-saml-provider'; org: string; provider: Ref };

const Certificate = z.union([
  z.strictObject({
    file: z
      .string()
      .min(1)
      .describe(
        'Path of a PEM certificate, relative to this YAML file: a regular file inside the config repository, outside .git (or any VCS folder), reached without symlinks.',
      ),
  }),
  z.strictObject({
    env: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
      // The JSON Schema states the rule validate applies (src/secrets/indirect.ts), so editors
      // warn too; validate keeps its own check for its located `indirect-env-not-allowed` error.
      .meta({ pattern: '^DOCSYNC_SECRET_[A-Za-z0-9_]+$' })
      .describe('Name of an environment variable holding the PEM; must start with DOCSYNC_SECRET_.'),
  }),
]);

const Config = z.strictObject({
  label: z.string().min(1).max(30).describe('Identity of the SAML provider (unless id is pinned).'),
  id: pin('label'),
  previously: previously('label'),
  entityID: z.string().max(1024).optional(),
  ssoURL: z.url().max(2048).optional(),
  certificate: Certificate.optional().describe('Read from a file or a variable; never printed in plans.'),
  defaultTeam: z.string().min(1).optional().describe('Title of a team.'),
  defaultRole: Role.nullable().optional(),
});
type Config = z.infer<typeof Config>;

/** The certificate is desired by its source and hash: its content never enters the desired state. */
export type DesiredSamlProvider = {
  label: string;
  id?: string;
  previously?: string[];
  entityID?: string;
  ssoURL?: string;
  certificate?: CertificateRef;
  /** Team title. */
  defaultTeam?: string;
  defaultRole?: MemberRole | null;
};

/** The certificate is kept as a hash only. */
export type LiveSamlProvider = {
  id: string;
  label: string;
  entityID: string | null;
  ssoURL: string | null;
  certificateSha256: string | null;
  defaultTeam: string | null;
  defaultRole: MemberRole | null;
};

const nullish = <T extends z.ZodType>(t: T) => t.nullable().optional();
const Answer = z.looseObject({
  id: z.string(),
  label: z.string(),
  entityID: nullish(z.string()),
  ssoURL: nullish(z.string()),
  certificate: nullish(z.string()),
  defaultTeam: nullish(z.looseObject({ id: z.string() })),
  defaultRole: nullish(Role),
});
type Answer = z.infer<typeof Answer>;

const LIST = '/orgs/{org}/saml';
const ROUTE = '/orgs/{org}/saml/{provider}';
const address = (org: string, label: string) => `${org}/saml/${label}`;
const list = (org: string) => ({ route: LIST, params: { org }, item: Answer });
const shortHash = (sha: string | null) => (sha ? `sha256:${sha.slice(0, 12)}…` : null);

/** The certificate is compared by hash and never shown. */
function diff(ctx: DiffContext, desired: DesiredSamlProvider[], live: LiveSamlProvider[]): void {
  const drafts = kindDrafts<SamlProviderOp>(ctx, 'saml-provider');
  countLive(ctx, 'saml-provider', live.length);
  const { pairs, leftover } = pairByIdentity(ctx, 'saml', desired, live, (x) => x.label);
  for (const [d, l] of pairs) {
    const addr = address(ctx.org, d.label);
    const before = dict<unknown>();
    const after = dict<unknown>();
    const body = dict<unknown>();
    const deps: (string | undefined)[] = [];
    // A pinned (or `previously`) provider whose label changed is renamed in place.
    if (l && l.label !== d.label) {
      before['label'] = l.label;
      after['label'] = d.label;
      body['label'] = d.label;
    }
    for (const key of ['entityID', 'ssoURL', 'defaultRole'] as const) {
      if (d[key] === undefined) continue;
      if (l && same(d[key], l[key])) continue;
      if (l) before[key] = l[key];
      after[key] = d[key];
      body[key] = d[key];
    }
    if (d.certificate && (!l || l.certificateSha256 !== d.certificate.sha256)) {
      if (l) before['certificate'] = shortHash(l.certificateSha256);
      after['certificate'] = shortHash(d.certificate.sha256);
      body['certificate'] = { $certificate: d.certificate };
    }
    if (d.defaultTeam !== undefined) {
      const team = ctx.teamRefs.get(d.defaultTeam);
      if (!team) {
        problem(
          ctx,
          `saml "${d.label}": defaultTeam names the team "${d.defaultTeam}", which does not exist`,
          'unknown-reference',
        );
        continue;
      }
      // A team this plan creates has no id yet: it differs from any live value, null included.
      const teamId = 'id' in team.ref ? team.ref.id : undefined;
      if (!l || teamId !== l.defaultTeam) {
        if (l) before['defaultTeam'] = l.defaultTeam;
        after['defaultTeam'] = d.defaultTeam;
        body['defaultTeam'] = { $ref: team.ref };
        deps.push(team.createKey);
      }
    }
    if (!l) {
      drafts.create({
        address: addr,
        after: { label: d.label, ...after },
        deps,
        op: { type: 'create-saml-provider', org: ctx.org, body: { label: d.label, ...body } },
      });
      continue;
    }
    if (Object.keys(after).length > 0)
      drafts.update({
        address: addr,
        before,
        after,
        deps,
        op: { type: 'update-saml-provider', org: ctx.org, provider: liveRef(l.id), patch: body },
      });
  }
  for (const l of leftover) {
    const addr = address(ctx.org, l.label);
    drafts.prune({
      address: addr,
      id: l.id,
      before: { label: l.label },
      op: { type: 'delete-saml-provider', org: ctx.org, provider: liveRef(l.id) },
    });
  }
}

/** Certificates are written as files under certs/ (the live model keeps their hashes only). */
function exportEntries(live: LiveSamlProvider[] | undefined, ctx: ExportContext): Config[] | undefined {
  if (!live || live.length === 0) return undefined;
  const takenCerts = new Set<string>();
  const dup = duplicatesOf(live.map((p) => p.label));
  const teams = (ctx.org['teams'] ?? []) as { id: string; title: string }[];
  return live.map((p) => {
    const team = teams.find((t) => t.id === p.defaultTeam);
    const cert = ctx.secrets.get(p.id);
    let certFile: string | undefined;
    if (cert) {
      certFile = `certs/${fileSlug(p.label, takenCerts, 'provider')}.pem`;
      ctx.files.push({ path: certFile, text: `${cert.trim()}\n` });
    }
    return {
      label: p.label,
      ...(dup.has(p.label) ? { id: p.id } : {}),
      ...(p.entityID !== null ? { entityID: p.entityID } : {}),
      ...(p.ssoURL !== null ? { ssoURL: p.ssoURL } : {}),
      ...(certFile ? { certificate: { file: certFile } } : {}),
      ...(team ? { defaultTeam: team.title } : {}),
      defaultRole: p.defaultRole,
    };
  });
}

export const samlProviderKind: ListKind<
  'saml',
  Config,
  DesiredSamlProvider,
  LiveSamlProvider,
  SamlProviderOp,
  'saml-provider'
> = {
  kind: 'saml-provider',
  key: 'saml',
  config: Config,
  docs: {
    'saml[]': {
      title: 'SAML providers',
      identity: '`label`',
      example: [
        {
          label: 'Okta',
          entityID: 'http://www.okta.com/exk123',
          ssoURL: 'https://example.okta.com/app/sso/saml',
          certificate: { env: 'DOCSYNC_SECRET_OKTA_CERT' },
          defaultRole: 'read',
        },
      ],
    },
    'saml[].certificate': { title: 'SAML certificate' },
  },
  unique: { what: 'SAML provider', key: 'label', pinned: true },
  indirect: {
    key: 'certificate',
    source: (p) => p.certificate,
    maxChars: CERTIFICATE_MAX,
    content: pemCertificateProblem,
  },
  normalize: (p, { certificates }) =>
    defined({
      label: p.label,
      id: p.id,
      previously: p.previously,
      entityID: p.entityID,
      ssoURL: p.ssoURL,
      certificate: certificates.get(p),
      defaultTeam: p.defaultTeam,
      defaultRole: p.defaultRole,
    }),
  references: (p: DesiredSamlProvider) =>
    p.defaultTeam === undefined
      ? []
      : [{ target: 'team', id: p.defaultTeam, path: ['defaultTeam'], holder: `saml "${p.label}"` }],
  reads: [
    {
      list,
      live: (p: Answer): LiveSamlProvider => ({
        id: p.id,
        label: p.label,
        entityID: p.entityID || null,
        ssoURL: p.ssoURL || null,
        certificateSha256: p.certificate ? certificateHash(p.certificate) : null,
        defaultTeam: p.defaultTeam?.id ?? null,
        defaultRole: p.defaultRole ?? null,
      }),
      secret: (p: Answer) => (p.certificate ? [p.id, p.certificate] : undefined),
    },
  ],
  diff,
  export: { file: 'saml.yaml', header: 'SAML providers (certificates in certs/)', entries: exportEntries },
  ops: {
    'create-saml-provider': {
      call: (op, r) => ({
        method: 'POST',
        route: LIST,
        params: { org: op.org },
        body: r.patch(op.body),
        expect: [201],
        answer: Answer,
        create: true,
      }),
      output: idOutput,
      adopt: {
        list: (op) => list(op.org),
        find: (p: Answer, op) => p.label === op.body['label'],
        output: idOutput,
      },
    },
    'update-saml-provider': {
      call: (op, r) => ({
        method: 'PATCH',
        route: ROUTE,
        params: { org: op.org, provider: r.ref(op.provider) },
        body: r.patch(op.patch),
        expect: [200],
        answer: Answer,
      }),
    },
    'delete-saml-provider': {
      call: (op, r, caps) => deleteCall(ROUTE, { org: op.org, provider: r.ref(op.provider) }, caps),
    },
  },
  examples: {
    pairs: [
      {
        config: { label: 'Okta', entityID: 'http://www.okta.com/abc', defaultRole: 'read' },
        seed: { label: 'Okta', entityID: 'http://www.okta.com/abc', defaultRole: 'read' },
        changed: { label: 'Okta', entityID: 'http://www.okta.com/abc', defaultRole: 'edit' },
      },
      {
        config: { label: 'Azure', ssoURL: 'https://login.example.com/sso' },
        seed: { label: 'Azure', ssoURL: 'https://login.example.com/sso' },
        changed: { label: 'Azure AD', previously: ['Azure'], ssoURL: 'https://login.example.com/sso' },
      },
    ],
  } satisfies KindExamples<Config>,
};
