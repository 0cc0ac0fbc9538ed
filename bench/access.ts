import {
  accessRows,
  diffAccess,
  effectiveAccess,
  type AccessModel,
  type Role,
} from '../src/access/effective.js';

/**
 * The effective-access computation (issue 29) at 10,000 spaces in 200 collections, 300 teams of
 * 8 members out of 1,000, a grant per team on 5 collections and 10 spaces, and 1 user grant per
 * 20 spaces: the matrix now and after a plan that moves a grant, and their difference.
 */
export function accessModel(spaces = 10_000, teams = 300): AccessModel {
  const roles: Role[] = ['read', 'comment', 'review', 'edit', 'create', 'admin'];
  const members = Array.from({ length: 1_000 }, (_, i) => ({
    id: `u${i}`,
    email: `user${i}@acme.com`,
    role: i < 5 ? ('admin' as const) : i % 7 === 0 ? null : roles[i % 4]!,
  }));
  const collections = Array.from({ length: 200 }, (_, i) => ({
    noun: 'collection' as const,
    id: `c${i}`,
    title: `Collection ${i}`,
    parent: i < 20 ? null : `c${i % 20}`,
    defaultLevel: i % 3 === 0 ? ('inherit' as const) : ('read' as const),
  }));
  const spaceObjects = Array.from({ length: spaces }, (_, i) => ({
    noun: 'space' as const,
    id: `s${i}`,
    title: `Space ${i}`,
    parent: `c${i % 200}`,
    defaultLevel: i % 5 === 0 ? null : ('inherit' as const),
  }));
  const teamList = Array.from({ length: teams }, (_, t) => ({
    id: `t${t}`,
    title: `Team ${t}`,
    members: Array.from({ length: 8 }, (_, k) => `u${(t * 8 + k) % 1_000}`),
  }));
  const grants = teamList.flatMap((t, n) => [
    ...Array.from({ length: 5 }, (_, k) => ({
      object: `c${(n * 5 + k) % 200}`,
      subject: { team: t.id },
      role: roles[(n + k) % 6]!,
    })),
    ...Array.from({ length: 10 }, (_, k) => ({
      object: `s${(n * 37 + k * 101) % spaces}`,
      subject: { team: t.id },
      role: roles[(n + k) % 6]!,
    })),
  ]);
  for (let i = 0; i < spaces; i += 20)
    grants.push({ object: `s${i}`, subject: { user: `u${i % 1_000}` } as never, role: 'edit' });
  return { members, teams: teamList, objects: [...collections, ...spaceObjects], grants };
}

/** CPU ms of now + after + their difference (median of 3), and the difference's size. */
export function measureAccess(): { ms: number; changes: number; rows: number } {
  const before = accessModel();
  // The plan: one team gains a member, one grant is lowered, one collection's default changes.
  const after = {
    ...before,
    teams: before.teams.map((t, i) => (i === 0 ? { ...t, members: [...t.members, 'u999'] } : t)),
    grants: before.grants.map((g, i) => (i === 0 ? { ...g, role: 'read' as const } : g)),
    objects: before.objects.map((o) => (o.id === 'c25' ? { ...o, defaultLevel: 'edit' as const } : o)),
  };
  const emails = new Map(before.members.map((m) => [m.id, m.email]));
  const times: number[] = [];
  let changes = 0;
  let rows = 0;
  for (let run = 0; run < 3; run += 1) {
    const t0 = process.cpuUsage();
    const a = effectiveAccess(before);
    const b = effectiveAccess(after);
    changes = diffAccess(a, b, emails).length;
    const used = process.cpuUsage(t0);
    times.push((used.user + used.system) / 1000);
    rows = accessRows(a, emails).length;
  }
  return { ms: times.sort((x, y) => x - y)[1]!, changes, rows };
}
