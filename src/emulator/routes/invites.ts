import { createHash } from 'node:crypto';
import { badRequest } from '../errors.js';
import { findOrg, now } from '../store.js';
import { asBody, roles } from '../validate.js';
import type { RouteDeps } from './context.js';

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

/**
 * `POST /orgs/{organizationId}/invites` (today's API): each e-mail joins the organization with its
 * role (or the body's `role`) at once, as the API answers for users who exist (`users`, `invited`);
 * one already a member is left as it is. The emulator keeps no pending invitation.
 */
export function registerInvites(deps: RouteDeps): void {
  deps.router.on('POST', '/orgs/:orgId/invites', ({ params, body }) => {
    const org = findOrg(deps.state(), params.orgId!);
    const b = asBody(body, true);
    const emails = b['emails'];
    if (!Array.isArray(emails) || emails.length === 0) throw badRequest('emails: must be a non-empty array');
    const fallback = b['role'] === undefined ? 'read' : b['role'];
    const invites = emails.map((e, i) => {
      const entry = typeof e === 'string' ? { email: e, role: fallback } : (e as Record<string, unknown>);
      const email = entry['email'];
      if (typeof email !== 'string' || !EMAIL.test(email))
        throw badRequest(`emails[${i}].email: must be an e-mail`);
      const role = entry['role'];
      if (role !== null && !(roles as readonly unknown[]).includes(role))
        throw badRequest(`emails[${i}].role: must be one of ${roles.join(', ')} or null`);
      return { email, role: role as string | null };
    });
    const users: string[] = [];
    for (const { email, role } of invites) {
      const known = org.members.find((m) => m.user.email.toLowerCase() === email.toLowerCase());
      if (known) continue;
      const id = `user_${createHash('sha256').update(email.toLowerCase()).digest('hex').slice(0, 10)}`;
      org.members.push({
        user: { id, displayName: email.split('@')[0]!, email },
        role,
        joinedAt: now(),
        disabled: false,
      });
      users.push(id);
    }
    return { status: 200, body: { users, invited: users.length } };
  });
}
