import { z } from 'zod';
import type { ApiClient } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import { aggregateList, compareAggregates, type AggregateAnswer } from '../access/aggregate.js';
import { auditRows, csvCell, organizationAdmins, type AuditRow } from '../access/audit.js';
import { effectiveAccess, type AccessMatrix, type AccessModel } from '../access/effective.js';
import { emailsOf, liveAccessModel } from '../access/model.js';
import { readScoped } from '../live/read.js';
import { everything } from '../live/scope.js';
import { oneLine } from '../plan/markdown-escape.js';
import { makeApi, makeLogger, type CommonOptions } from './context.js';
import { err, out } from './output.js';
import { loadOrReport } from './plan.js';

export type AccessFormat = 'text' | 'csv' | 'json';
export type AccessOptions = CommonOptions & { org?: string; format: AccessFormat; aggregate: boolean };

/** What `docsync access` reports of one organization. */
export type OrganizationAccess = {
  organization: string;
  admins: string[];
  rows: AuditRow[];
  warnings: string[];
};

/**
 * `docsync access [--org ID] [--format text|csv|json]`: who can read, edit or administer each
 * collection, space and site, from live state (reads only), for audits. Without `--org`, every
 * organization the config names. Exit 0, or 1 on an error (nothing printed on stdout then).
 */
export async function accessCommand(opts: AccessOptions): Promise<number> {
  makeLogger(opts, 'access');
  let orgs: string[];
  if (opts.org) orgs = [opts.org];
  else {
    const desired = await loadOrReport(opts.config);
    if (!desired) return 1;
    orgs = desired.organizations.map((o) => o.id);
  }
  const api = makeApi(opts);
  try {
    const reports: OrganizationAccess[] = [];
    for (const org of orgs) reports.push(await organizationAccess(api, org, opts.aggregate));
    out(renderAccess(reports, opts.format));
    for (const r of reports) for (const w of r.warnings) err(`warning: ${r.organization}: ${oneLine(w)}`);
    return 0;
  } finally {
    await api.close();
  }
}

const SpaceItem = z.looseObject({ id: z.string() });

/**
 * The live state `docsync access` reads: members, teams (with members), sites, collections, and the
 * spaces in those collections or on those sites (one GET each, with what is read beside a space).
 */
export async function readAccessModel(api: ApiClient, org: string): Promise<AccessModel> {
  const first = await readScoped(api, org, {
    objects: [],
    collections: true,
    lists: ['members', 'teams', 'sites'],
    spaceDetails: [],
    spaceIds: [],
  });
  const inCollections = await Promise.all(
    (first.collections ?? []).map((c) =>
      api.list({ route: '/collections/{collection}/spaces', params: { collection: c.id }, item: SpaceItem }),
    ),
  );
  const onSites = (first.sites ?? []).flatMap((s) =>
    [...(s.sections ?? []).flatMap((x) => x.spaces), ...(s.spaces ?? [])].map((ss) => ss.space),
  );
  const ids = [...new Set([...inCollections.flat().map((s) => s.id), ...onSites])].sort();
  const spaces =
    ids.length > 0
      ? (
          await readScoped(api, org, {
            ...everything(ids),
            objects: [],
            collections: false,
            lists: [],
          })
        ).spaces
      : [];
  return liveAccessModel({ ...first, spaces: spaces ?? [] });
}

async function organizationAccess(
  api: ApiClient,
  org: string,
  aggregate: boolean,
): Promise<OrganizationAccess> {
  const model = await readAccessModel(api, org);
  const matrix = effectiveAccess(model);
  const emails = emailsOf(model);
  const warnings =
    aggregate && api.capabilities.flavor === 'current'
      ? await checkAggregates(api, org, model, matrix, emails)
      : [];
  return {
    organization: org,
    admins: organizationAdmins(matrix, emails),
    rows: auditRows(matrix, emails),
    warnings,
  };
}

/**
 * The live computation against the API's `…/permissions/aggregate` of every object (one list
 * each): the differences as warnings that name both. An API that serves no aggregate (it answers
 * 404 for the first object) is said once, and nothing is compared.
 */
export async function checkAggregates(
  api: ApiClient,
  org: string,
  model: AccessModel,
  matrix: AccessMatrix,
  emails: ReadonlyMap<string, string>,
): Promise<string[]> {
  const reads = model.objects.flatMap((o) => {
    const list = aggregateList(org, o.noun, o.id);
    return list ? [{ id: o.id, list }] : [];
  });
  if (reads.length === 0) return [];
  const [head, ...rest] = reads;
  let first: AggregateAnswer;
  try {
    first = { object: head!.id, items: await api.list(head!.list) };
  } catch (error) {
    if (error instanceof ApiError && error.code === 'not-found')
      return ['the API serves no permissions/aggregate here: the computed access is not checked against it'];
    throw error;
  }
  const others = await Promise.all(
    rest.map(async ({ id, list }): Promise<AggregateAnswer> => ({ object: id, items: await api.list(list) })),
  );
  return compareAggregates(matrix, [first, ...others], emails);
}

const HEADER = [
  'organization',
  'objectKind',
  'objectId',
  'object',
  'subjectKind',
  'subject',
  'role',
  'via',
] as const;

/** The reports as text (a block per object), CSV (one row per line, header first) or JSON. */
export function renderAccess(reports: readonly OrganizationAccess[], format: AccessFormat): string {
  if (format === 'json')
    return `${JSON.stringify(
      {
        formatVersion: 1,
        organizations: reports.map((r) => ({
          id: r.organization,
          admins: r.admins,
          rows: r.rows,
          warnings: r.warnings,
        })),
      },
      null,
      2,
    )}\n`;
  if (format === 'csv') {
    const lines = [HEADER.join(',')];
    for (const r of reports)
      for (const row of r.rows) {
        const values: Record<(typeof HEADER)[number], string> = { organization: r.organization, ...row };
        lines.push(HEADER.map((h) => csvCell(values[h])).join(','));
      }
    return `${lines.join('\n')}\n`;
  }
  const out: string[] = [];
  for (const r of reports) {
    out.push(`Access in ${oneLine(r.organization)}`);
    out.push(`  organization admins (admin on everything): ${r.admins.map(oneLine).join(', ') || 'none'}`);
    let object = '';
    for (const row of r.rows) {
      const key = `${row.objectKind}\u0000${row.objectId}`;
      if (key !== object) {
        out.push('', `${row.objectKind} ${oneLine(row.object)} (${oneLine(row.objectId)})`);
        object = key;
      }
      out.push(`  ${oneLine(row.subject)}: ${row.role} (via ${oneLine(row.via)})`);
    }
    if (r.rows.length === 0) out.push('  no object gives anyone more than the organization admins have');
    out.push('');
  }
  return `${out.join('\n').trimEnd()}\n`;
}
