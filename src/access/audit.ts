import type { AccessMatrix, Role } from './effective.js';

/**
 * The matrix for audits (`docsync access`): per object, what every member gets by default, each
 * team granted a role on it or above it, and each member above the default; organization admins
 * (admin on everything) once for the organization. Pure, and in a fixed order (objects as the
 * model lists them, then all members, teams, members by name).
 */
export type AuditRow = {
  objectKind: string;
  objectId: string;
  object: string;
  subjectKind: 'all' | 'team' | 'member';
  subject: string;
  role: Role | 'their organization role';
  via: string;
};

export function auditRows(matrix: AccessMatrix, emails: ReadonlyMap<string, string>): AuditRow[] {
  const rows: AuditRow[] = [];
  for (const { object, base, users } of matrix.rows.values()) {
    const teams = matrix.teamsOf(object.id);
    const on = { objectKind: object.noun, objectId: object.id, object: object.title };
    if (base !== null)
      rows.push({
        ...on,
        subjectKind: 'all',
        subject: 'all members',
        role: base === 'org-role' ? 'their organization role' : base.role,
        via: base === 'org-role' ? 'default level: inherit' : base.via,
      });
    const teamRows = [...teams].map(([id, a]) => ({
      ...on,
      subjectKind: 'team' as const,
      subject: `Team ${matrix.teamTitles.get(id) ?? id}`,
      role: a.role,
      via: a.via,
    }));
    const memberRows = [...users]
      .filter(([id]) => matrix.orgRoles.get(id) !== 'admin')
      .map(([id, a]) => ({
        ...on,
        subjectKind: 'member' as const,
        subject: emails.get(id) ?? id,
        role: a.role,
        via: a.via,
      }));
    const byName = (x: AuditRow, y: AuditRow) => (x.subject < y.subject ? -1 : x.subject > y.subject ? 1 : 0);
    rows.push(...teamRows.sort(byName), ...memberRows.sort(byName));
  }
  return rows;
}

/** The organization's admins (admin on everything), by e-mail. */
export function organizationAdmins(matrix: AccessMatrix, emails: ReadonlyMap<string, string>): string[] {
  return [...matrix.orgRoles]
    .filter(([, role]) => role === 'admin')
    .map(([id]) => emails.get(id) ?? id)
    .sort();
}

/** One CSV cell (RFC 4180), never a formula when a spreadsheet opens it (`=`, `+`, `-`, `@` first). */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}
