import {
  address,
  type DesiredCollection,
  type DesiredMember,
  type DesiredOpenApiSpec,
  type DesiredSamlProvider,
  type DesiredSettings,
  type DesiredSpace,
  type DesiredTranslation,
  type LiveCollection,
  type LiveMember,
  type LiveOpenApiSpec,
  type LiveSamlProvider,
  type LiveSettings,
  type LiveSpace,
  type LiveTranslation,
  type Ref,
} from '../model/index.js';
import { pairByIdentity, problem, type DiffContext } from './context.js';
import { changedFields, createdRef, fieldsToSet, liveRef, same } from './draft.js';

/** Organization settings: one update with every field that differs. */
export function diffSettings(ctx: DiffContext, d: DesiredSettings, l: LiveSettings): void {
  const diff = changedFields(d, l, [
    'title',
    'emailDomains',
    'hostname',
    'defaultRole',
    'inviteLinks',
    'sso',
    'ai',
  ]);
  const before = { ...(diff?.before ?? {}) };
  const after = { ...(diff?.after ?? {}) };
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
  const addr = address.organization(ctx.org);
  ctx.drafts.add({
    key: `update:${addr}`,
    action: 'update',
    kind: 'organization',
    address: addr,
    before,
    after,
    deps,
    op: { type: 'update-organization', org: ctx.org, patch },
  });
}

/** Roles of the listed members. Others are left alone; removal only with prune, never the token's own user. */
export function diffMembers(
  ctx: DiffContext,
  desired: DesiredMember[],
  live: LiveMember[],
  self: string | null,
): void {
  const matches = (user: string, m: LiveMember) =>
    m.userId === user || (m.email !== null && m.email.toLowerCase() === user.toLowerCase());
  const kept = new Set<LiveMember>();
  for (const d of desired) {
    const m = live.find((x) => matches(d.user, x));
    if (!m) {
      problem(
        ctx,
        `members: "${d.user}" is not a member of the organization (docsync sets roles; it does not invite)`,
      );
      continue;
    }
    kept.add(m);
    if (m.role === d.role) continue;
    const addr = address.member(ctx.org, d.user);
    ctx.drafts.add({
      key: `update:${addr}`,
      action: 'update',
      kind: 'member',
      address: addr,
      before: { role: m.role },
      after: { role: d.role },
      op: { type: 'update-member', org: ctx.org, userId: m.userId, role: d.role },
    });
  }
  for (const m of live) {
    if (kept.has(m)) continue;
    const addr = address.member(ctx.org, m.email ?? m.userId);
    if (ctx.prune && m.userId !== self && self !== null)
      ctx.drafts.add({
        key: `delete:${addr}`,
        action: 'delete',
        kind: 'member',
        address: addr,
        before: { role: m.role },
        after: null,
        op: { type: 'remove-member', org: ctx.org, userId: m.userId },
      });
    else ctx.unmanaged.push({ kind: 'member', address: addr });
  }
  if (ctx.prune && self === null && live.length > kept.size)
    problem(
      ctx,
      'members: cannot tell which user the token belongs to, so no member is removed; pin the members to keep or turn prune off',
    );
}

type CollectionSlot = {
  d: DesiredCollection;
  l: LiveCollection | undefined;
  ref: Ref;
  addr: string;
  createKey?: string;
};

/** Collections by title (or pinned id), nested by parent title; spaces' own fields and parent. */
export function diffCollections(
  ctx: DiffContext,
  desired: DesiredCollection[] | undefined,
  live: LiveCollection[],
  spaces: DesiredSpace[],
  liveSpaces: LiveSpace[],
): void {
  const { drafts, org } = ctx;
  const slots = new Map<string, CollectionSlot>();
  const moves: { key: string; fromParent: string | null }[] = [];
  if (desired) {
    ctx.managedLive.count += live.length;
    const { pairs, leftover } = pairByIdentity(
      ctx,
      'collection',
      desired,
      live,
      (d) => d.id,
      (x) => x.title,
    );
    for (const [d, l] of pairs) {
      const addr = address.collection(org, d.title);
      slots.set(d.title, { d, l, ref: l ? liveRef(l.id) : { id: '' }, addr });
    }
    // Parents first, so a child's creation can name its parent.
    const depth = (d: DesiredCollection, n = 0): number =>
      d.parent && n < 50 ? depth(slots.get(d.parent)?.d ?? d, n + 1) : n;
    const ordered = [...slots.values()].sort((a, b) => depth(a.d) - depth(b.d));
    for (const slot of ordered) {
      const parent = slot.d.parent ? slots.get(slot.d.parent) : undefined;
      if (!slot.l) {
        slot.createKey = `create:${slot.addr}`;
        slot.ref = createdRef(slot.createKey);
        drafts.add({
          key: slot.createKey,
          action: 'create',
          kind: 'collection',
          address: slot.addr,
          before: null,
          after: { title: slot.d.title, ...(slot.d.parent ? { parent: slot.d.parent } : {}) },
          deps: [parent?.createKey],
          op: {
            type: 'create-collection',
            org,
            title: slot.d.title,
            ...(parent ? { parent: parent.ref } : {}),
          },
        });
        const follow = fieldsToSet(slot.d, ['description', 'defaultLevel']);
        if (follow)
          drafts.add({
            key: `update:${slot.addr}`,
            action: 'update',
            kind: 'collection',
            address: slot.addr,
            before: null,
            after: follow,
            deps: [slot.createKey],
            note: 'set after creation',
            op: { type: 'update-collection', collection: slot.ref, patch: follow },
          });
        continue;
      }
      const diff = changedFields(slot.d, slot.l, ['title', 'description', 'defaultLevel']);
      if (diff)
        drafts.add({
          key: `update:${slot.addr}`,
          action: 'update',
          kind: 'collection',
          address: slot.addr,
          ...diff,
          op: { type: 'update-collection', collection: slot.ref, patch: diff.after },
        });
      if (slot.d.parent !== undefined) {
        const want = parent ? parent.ref : null;
        const wantId = want && 'id' in want ? want.id : want ? 'new' : null;
        if (wantId !== slot.l.parent) {
          const key = `move:${slot.addr}`;
          drafts.add({
            key,
            action: 'move',
            kind: 'collection',
            address: slot.addr,
            before: { parent: titleOf(live, slot.l.parent) },
            after: { parent: slot.d.parent },
            deps: [parent?.createKey],
            op: { type: 'move-collection', collection: slot.ref, parent: want },
          });
          moves.push({ key, fromParent: slot.l.parent });
        }
      }
    }
    for (const l of leftover) {
      const addr = address.collection(org, l.title);
      if (ctx.prune)
        drafts.add({
          key: `delete:${addr}#${l.id}`,
          action: 'delete',
          kind: 'collection',
          address: addr,
          before: { title: l.title },
          after: null,
          op: { type: 'delete-collection', collection: liveRef(l.id) },
        });
      else ctx.unmanaged.push({ kind: 'collection', address: addr });
    }
  }
  // Spaces: their own fields, and their parent collection.
  const liveById = new Map(liveSpaces.map((s) => [s.id, s]));
  for (const d of spaces) {
    const l = liveById.get(d.id);
    if (!l || l.title === undefined) continue;
    const addr = address.space(org, d.id);
    const diff = changedFields(d, l, ['title', 'emoji', 'editMode', 'defaultLevel']);
    if (diff)
      drafts.add({
        key: `update:${addr}`,
        action: 'update',
        kind: 'space',
        address: addr,
        ...diff,
        op: { type: 'update-space', spaceId: d.id, patch: diff.after },
      });
    if (d.parent === undefined) continue;
    const parent = d.parent ? (slots.get(d.parent) ?? liveCollection(live, d.parent)) : undefined;
    if (d.parent && !parent) {
      problem(ctx, `space ${d.id}: no collection titled "${d.parent}"`);
      continue;
    }
    const want = parent ? parent.ref : null;
    const wantId = want && 'id' in want ? want.id : want ? 'new' : null;
    if (wantId === (l.parent ?? null)) continue;
    const key = `move:${addr}`;
    drafts.add({
      key,
      action: 'move',
      kind: 'space',
      address: addr,
      before: { parent: titleOf(live, l.parent ?? null) },
      after: { parent: d.parent },
      deps: [parent?.createKey],
      op: { type: 'move-space', spaceId: d.id, parent: want },
    });
    moves.push({ key, fromParent: l.parent ?? null });
  }
  // A collection is deleted after what moves out of it; a child collection before its parent.
  for (const draft of drafts.drafts) {
    if (draft.op.type !== 'delete-collection' || !('id' in draft.op.collection)) continue;
    const id = draft.op.collection.id;
    for (const m of moves) if (m.fromParent === id) drafts.depend(draft.key, m.key);
    for (const child of live.filter((c) => c.parent === id)) {
      const childDelete = drafts.drafts.find(
        (x) =>
          x.op.type === 'delete-collection' && 'id' in x.op.collection && x.op.collection.id === child.id,
      );
      if (childDelete) drafts.depend(draft.key, childDelete.key);
    }
  }
}

function titleOf(live: LiveCollection[], id: string | null): string | null {
  return id === null ? null : (live.find((c) => c.id === id)?.title ?? id);
}

function liveCollection(live: LiveCollection[], title: string): { ref: Ref; createKey?: string } | undefined {
  const c = live.find((x) => x.title === title);
  return c ? { ref: liveRef(c.id) } : undefined;
}

/** OpenAPI specs by slug: created with their source, PUT to change the source. */
export function diffOpenApi(ctx: DiffContext, desired: DesiredOpenApiSpec[], live: LiveOpenApiSpec[]): void {
  ctx.managedLive.count += live.length;
  const bySlug = new Map(live.map((x) => [x.slug, x]));
  for (const d of desired) {
    const addr = address.openapi(ctx.org, d.slug);
    const l = bySlug.get(d.slug);
    if (!l)
      ctx.drafts.add({
        key: `create:${addr}`,
        action: 'create',
        kind: 'openapi-spec',
        address: addr,
        before: null,
        after: { source: d.source },
        op: { type: 'create-openapi-spec', org: ctx.org, slug: d.slug, url: d.source },
      });
    else if (l.source !== d.source)
      ctx.drafts.add({
        key: `update:${addr}`,
        action: 'update',
        kind: 'openapi-spec',
        address: addr,
        before: { source: l.source },
        after: { source: d.source },
        op: { type: 'update-openapi-spec', org: ctx.org, slug: d.slug, url: d.source },
      });
  }
  const wanted = new Set(desired.map((d) => d.slug));
  for (const l of live) {
    if (wanted.has(l.slug)) continue;
    const addr = address.openapi(ctx.org, l.slug);
    if (ctx.prune)
      ctx.drafts.add({
        key: `delete:${addr}`,
        action: 'delete',
        kind: 'openapi-spec',
        address: addr,
        before: { source: l.source },
        after: null,
        op: { type: 'delete-openapi-spec', org: ctx.org, slug: l.slug },
      });
    else ctx.unmanaged.push({ kind: 'openapi-spec', address: addr });
  }
}

const shortHash = (sha: string | null) => (sha ? `sha256:${sha.slice(0, 12)}…` : null);

/** SAML providers by label. The certificate is compared by hash and never shown. */
export function diffSaml(ctx: DiffContext, desired: DesiredSamlProvider[], live: LiveSamlProvider[]): void {
  ctx.managedLive.count += live.length;
  const byLabel = new Map(live.map((x) => [x.label, x]));
  for (const d of desired) {
    const addr = address.saml(ctx.org, d.label);
    const l = byLabel.get(d.label);
    const before: Record<string, unknown> = {};
    const after: Record<string, unknown> = {};
    const body: Record<string, unknown> = {};
    const deps: (string | undefined)[] = [];
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
  const wanted = new Set(desired.map((d) => d.label));
  for (const l of live) {
    if (wanted.has(l.label)) continue;
    const addr = address.saml(ctx.org, l.label);
    if (ctx.prune)
      ctx.drafts.add({
        key: `delete:${addr}#${l.id}`,
        action: 'delete',
        kind: 'saml-provider',
        address: addr,
        before: { label: l.label },
        after: null,
        op: { type: 'delete-saml-provider', org: ctx.org, provider: liveRef(l.id) },
      });
    else ctx.unmanaged.push({ kind: 'saml-provider', address: addr });
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
    if (ctx.prune)
      ctx.drafts.add({
        key: `delete:${addr}#${l.id}`,
        action: 'delete',
        kind: 'translation',
        address: addr,
        before: { title: l.title },
        after: null,
        op: { type: 'delete-translation', org: ctx.org, translation: liveRef(l.id) },
      });
    else ctx.unmanaged.push({ kind: 'translation', address: addr });
  }
}
