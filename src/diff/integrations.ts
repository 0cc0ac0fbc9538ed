import {
  address,
  type DesiredSamlProvider,
  type DesiredTranslation,
  type LiveSamlProvider,
  type LiveTranslation,
} from '../model/index.js';
import { pairByIdentity, problem, type DiffContext, pruneOrList } from './context.js';
import { liveRef, same } from './draft.js';

const shortHash = (sha: string | null) => (sha ? `sha256:${sha.slice(0, 12)}…` : null);

/** SAML providers by label (or pinned id). The certificate is compared by hash and never shown. */
export function diffSaml(ctx: DiffContext, desired: DesiredSamlProvider[], live: LiveSamlProvider[]): void {
  ctx.managedLive.count += live.length;
  const { pairs, leftover } = pairByIdentity(
    ctx,
    'saml',
    desired,
    live,
    (d) => d.id,
    (x) => x.label,
    (d) => d.previously,
  );
  for (const [d, l] of pairs) {
    const addr = address.saml(ctx.org, d.label);
    const before: Record<string, unknown> = {};
    const after: Record<string, unknown> = {};
    const body: Record<string, unknown> = {};
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
        );
        continue;
      }
      const teamId = 'id' in team.ref ? team.ref.id : null;
      if (!l || teamId !== l.defaultTeam) {
        if (l) before['defaultTeam'] = l.defaultTeam;
        after['defaultTeam'] = d.defaultTeam;
        body['defaultTeam'] = { $ref: team.ref };
        deps.push(team.createKey);
      }
    }
    if (!l) {
      ctx.drafts.add({
        key: `create:${addr}`,
        action: 'create',
        kind: 'saml-provider',
        address: addr,
        before: null,
        after: { label: d.label, ...after },
        deps,
        op: { type: 'create-saml-provider', org: ctx.org, body: { label: d.label, ...body } },
      });
      continue;
    }
    if (Object.keys(after).length > 0)
      ctx.drafts.add({
        key: `update:${addr}`,
        action: 'update',
        kind: 'saml-provider',
        address: addr,
        before,
        after,
        deps,
        op: { type: 'update-saml-provider', org: ctx.org, provider: liveRef(l.id), patch: body },
      });
  }
  for (const l of leftover) {
    const addr = address.saml(ctx.org, l.label);
    pruneOrList(ctx, {
      key: `delete:${addr}#${l.id}`,
      kind: 'saml-provider',
      address: addr,
      before: { label: l.label },
      op: { type: 'delete-saml-provider', org: ctx.org, provider: liveRef(l.id) },
    });
  }
}

/** Translation settings by title (or pinned id). */
export function diffTranslations(
  ctx: DiffContext,
  desired: DesiredTranslation[],
  live: LiveTranslation[],
): void {
  ctx.managedLive.count += live.length;
  const { pairs, leftover } = pairByIdentity(
    ctx,
    'translation',
    desired,
    live,
    (d) => d.id,
    (x) => x.title,
    (d) => d.previously,
  );
  for (const [d, l] of pairs) {
    const addr = address.translation(ctx.org, d.title);
    if (!l)
      ctx.drafts.add({
        key: `create:${addr}`,
        action: 'create',
        kind: 'translation',
        address: addr,
        before: null,
        after: { title: d.title },
        op: { type: 'create-translation', org: ctx.org, title: d.title },
      });
    else if (l.title !== d.title)
      ctx.drafts.add({
        key: `update:${addr}`,
        action: 'update',
        kind: 'translation',
        address: addr,
        before: { title: l.title },
        after: { title: d.title },
        op: { type: 'update-translation', org: ctx.org, translation: liveRef(l.id), title: d.title },
      });
  }
  for (const l of leftover) {
    const addr = address.translation(ctx.org, l.title);
    pruneOrList(ctx, {
      key: `delete:${addr}#${l.id}`,
      kind: 'translation',
      address: addr,
      before: { title: l.title },
      op: { type: 'delete-translation', org: ctx.org, translation: liveRef(l.id) },
    });
  }
}
