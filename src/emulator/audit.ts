import { randomUUID } from 'node:crypto';
import { badRequest, notFound } from './errors.js';
import { paginate } from './paginate.js';
import type { RouteDeps } from './routes/context.js';
import type { EmuAuditEvent, EmuOrganization, EmulatorState } from './state.js';

/** A write the emulator served, as the audit log needs it. */
export type ServedWrite = {
  method: string;
  template: string;
  params: Record<string, string>;
  answer: unknown;
  /** The label of the target before the write (a deletion leaves nothing to read afterwards). */
  labelBefore?: string;
  /** `X-Emulator-Actor`: the user id a test or demo acts as (someone changing things in the UI). */
  actor?: string;
};

const LABEL_KEYS = ['title', 'name', 'label', 'email', 'path', 'slug'] as const;

/** The display label of an object: its title, name, e-mail… */
export function labelOf(value: unknown): string | undefined {
  if (!value || typeof value !== 'object') return undefined;
  for (const key of LABEL_KEYS) {
    const v = (value as Record<string, unknown>)[key];
    if (typeof v === 'string') return v;
  }
  return undefined;
}

/** The object with this id anywhere in the organization (for a deletion's label). */
export function findLabel(org: EmuOrganization, id: string): string | undefined {
  const stack: unknown[] = [org];
  while (stack.length > 0) {
    const value = stack.pop();
    if (Array.isArray(value)) stack.push(...value);
    else if (value && typeof value === 'object') {
      const record = value as Record<string, unknown>;
      if (record['id'] === id) return labelOf(record) ?? labelOf(record['user']);
      stack.push(...Object.values(record));
    }
  }
  return undefined;
}

const VERB: Record<string, string> = { POST: 'created', PUT: 'updated', PATCH: 'updated', DELETE: 'deleted' };

/** Record a served write in its organization's audit log (kept oldest first, served newest first). */
export function recordWrite(state: EmulatorState, write: ServedWrite): void {
  const orgId = write.params['orgId'];
  const org = orgId ? state.organizations.find((o) => o.id === orgId) : undefined;
  if (!org) return;
  const parts = write.template.split('/').filter(Boolean);
  const lastParam = [...parts].reverse().find((p) => p.startsWith(':') && p !== ':orgId');
  const created = write.method === 'POST' ? (write.answer as { id?: unknown } | undefined)?.id : undefined;
  const targetId =
    typeof created === 'string' ? created : lastParam ? write.params[lastParam.slice(1)] : org.id;
  if (!targetId) return;
  const literal = [...parts].reverse().find((p) => !p.startsWith(':')) ?? 'organization';
  const type = literal === 'orgs' ? 'organization' : literal.replace(/s$/, '');
  const actorId =
    write.actor ?? state.tokenUser ?? org.members.find((m) => m.role === 'admin')?.user.id ?? 'system';
  const actor = org.members.find((m) => m.user.id === actorId)?.user;
  const label = write.labelBefore ?? labelOf(write.answer);
  (org.auditEvents ??= []).push({
    id: randomUUID(),
    occurredAt: new Date().toISOString(),
    action: `${type}.${VERB[write.method] ?? 'changed'}`,
    actor: { type: 'user', id: actorId, ...(actor ? { label: actor.email } : {}) },
    source: write.actor ? 'ui' : 'api',
    target: { type, id: targetId, ...(label ? { label } : {}) },
  });
  if (org.auditEvents.length > MAX_EVENTS * 1.5)
    org.auditEvents.splice(0, org.auditEvents.length - MAX_EVENTS);
}

const MAX_EVENTS = 10_000;

/** `GET /orgs/{organizationId}/audit-events` and friends (today's API only). */
export function registerAudit(deps: RouteDeps): void {
  const { router } = deps;
  const base = '/orgs/:orgId/audit-events';
  const orgOf = (id: string) => {
    const org = deps.state().organizations.find((o) => o.id === id);
    if (!org) throw notFound(`organization ${id} not found`);
    return org;
  };
  const shape = (orgId: string) => (e: EmuAuditEvent) => ({
    object: 'audit-event',
    ...e,
    urls: { location: `${deps.baseUrl()}/v1/orgs/${encodeURIComponent(orgId)}/audit-events/${e.id}` },
  });
  router.on('GET', base, ({ params, query }) => {
    const limit = query.get('limit');
    if (limit !== null && (!/^\d+$/.test(limit) || Number(limit) < 1 || Number(limit) > 100))
      throw badRequest('limit: must be a number between 1 and 100');
    const from = query.get('from');
    const to = query.get('to');
    const events = [...(orgOf(params.orgId!).auditEvents ?? [])]
      .reverse()
      .filter(
        (e) =>
          (!query.get('target') || e.target.id === query.get('target')) &&
          (!query.get('actor') || e.actor.id === query.get('actor')) &&
          (!query.get('action') || e.action === query.get('action')) &&
          (!from || e.occurredAt >= from) &&
          (!to || e.occurredAt <= to),
      );
    const q = new URLSearchParams(query);
    if (limit === null) q.set('limit', '20');
    return { status: 200, body: paginate(events, q, shape(params.orgId!)) };
  });
  router.on('GET', `${base}/:auditEventId`, ({ params }) => {
    const event = (orgOf(params.orgId!).auditEvents ?? []).find((e) => e.id === params.auditEventId);
    if (!event) throw notFound(`audit event ${params.auditEventId} not found`);
    return { status: 200, body: { ...shape(params.orgId!)(event), schemaVersion: 1, payload: {} } };
  });
  router.on('GET', '/orgs/:orgId/audit-event-actions', ({ params }) => {
    const actions = [...new Set((orgOf(params.orgId!).auditEvents ?? []).map((e) => e.action))].sort();
    return {
      status: 200,
      body: {
        items: actions.map((id) => ({ object: 'audit-event-action', id, label: id.replace('.', ' ') })),
      },
    };
  });
}
