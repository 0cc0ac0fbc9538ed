import { z } from 'zod';
import type { ApiClient } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import { locateInConfig } from '../config/origins.js';
import { customFieldKind } from '../kinds/custom-field.js';
import { memberKind, type LiveMember } from '../kinds/member.js';
import { siteKind } from '../kinds/site.js';
import { teamKind } from '../kinds/team.js';
import type { ApiList } from '../kinds/types.js';
import type { DesiredOrganization, DesiredState, LiveOrganization, LiveState } from '../model/index.js';
import type { DiffProblem } from '../diff/draft.js';
import {
  referencesOf,
  referencesToCheck,
  spacesHeld,
  unresolvedReferences,
  type ConfigReference,
  type Known,
} from '../plan/references.js';

const SpaceAnswer = z.looseObject({ id: z.string(), title: z.string(), organization: z.string().optional() });

/**
 * Read what the config's references name and the live read did not prove (a space a site would
 * publish, a user a team would add, a custom field a space would set), and return a located plan
 * problem for each reference nothing answers, by organization. Reads only what is unproven: a
 * config that matches live state costs no call.
 */
export async function resolveReferences(
  api: ApiClient,
  desired: DesiredState,
  live: LiveState,
): Promise<Map<string, DiffProblem[]>> {
  const out = new Map<string, DiffProblem[]>();
  await Promise.all(
    desired.organizations.map(async (org) => {
      const liveOrg = live.organizations.find((l) => l.id === org.id);
      if (!liveOrg || liveOrg.readError !== undefined) return;
      const check = referencesToCheck(referencesOf(org), liveOrg);
      if (check.length === 0) return;
      const known = await readKnown(api, org, liveOrg, check);
      // In file order, as a compiler reports them.
      const problems = unresolvedReferences(org.id, check, known)
        .map((u) => located(org, u))
        .sort(
          (a, b) =>
            (a.at?.file ?? '').localeCompare(b.at?.file ?? '') ||
            (a.at?.line ?? 0) - (b.at?.line ?? 0) ||
            (a.at?.column ?? 0) - (b.at?.column ?? 0),
        );
      if (problems.length > 0) out.set(org.id, problems);
    }),
  );
  return out;
}

function located(org: DesiredOrganization, u: ConfigReference & { message: string }): DiffProblem {
  const at = locateInConfig(org, u.path, u.target === 'custom-field');
  return {
    organization: org.id,
    code: 'unknown-reference',
    message: at ? `${at.file}:${at.line}:${at.column}: ${u.message}` : u.message,
    ...(at ? { at } : {}),
  };
}

async function readKnown(
  api: ApiClient,
  desired: DesiredOrganization,
  live: LiveOrganization,
  check: ConfigReference[],
): Promise<Known> {
  const org = desired.id;
  const wants = (t: ConfigReference['target']) => check.some((r) => r.target === t);
  const [spaces, users, customFields, teams, sites] = await Promise.all([
    wants('space') ? readSpaces(api, org, live, check) : undefined,
    wants('user') ? readUsers(api, org, live) : undefined,
    wants('custom-field') && !api.capabilities.absent.includes('custom-field')
      ? readCustomFields(api, org, live)
      : undefined,
    wants('team') ? readTitles(api, org, live.teams, teamKind.reads[0]!, desired.teams) : undefined,
    wants('site') ? readTitles(api, org, live.sites, siteKind.reads[0]!, desired.sites) : undefined,
  ]);
  return {
    ...(spaces ? { spaces } : {}),
    ...(users ? { users } : {}),
    ...(customFields ? { customFields } : {}),
    ...(teams ? { teams } : {}),
    ...(sites ? { sites } : {}),
  };
}

/** One GET per space id the live sites do not hold yet; a space of another organization does not count. */
async function readSpaces(
  api: ApiClient,
  org: string,
  live: LiveOrganization,
  check: ConfigReference[],
): Promise<Map<string, string | null>> {
  const known = new Map<string, string | null>([...spacesHeld(live)].map((id) => [id, null]));
  for (const s of live.spaces ?? []) if (s.title !== undefined) known.set(s.id, s.title);
  const ids = [...new Set(check.filter((r) => r.target === 'space').map((r) => r.id))];
  await Promise.all(
    ids.map(async (id) => {
      try {
        const space = (await api.request({
          method: 'GET',
          route: '/spaces/{space}',
          params: { space: id },
          expect: [200],
          answer: SpaceAnswer,
        })) as z.infer<typeof SpaceAnswer>;
        if (space.organization === undefined || space.organization === org) known.set(space.id, space.title);
      } catch (error) {
        if (!(error instanceof ApiError && error.code === 'not-found')) throw error;
      }
    }),
  );
  return known;
}

async function readUsers(api: ApiClient, org: string, live: LiveOrganization) {
  const read = memberKind.reads[0]!;
  const members: LiveMember[] =
    live.members ?? (await api.list(read.list(org))).map((m) => read.live(m as never) as LiveMember);
  return members.map((m) => ({ id: m.userId, email: m.email }));
}

async function readCustomFields(api: ApiClient, org: string, live: LiveOrganization): Promise<string[]> {
  const read = customFieldKind.reads[0]!;
  const fields: { name: string }[] =
    live.customFields ??
    (await api.list(read.list(org))).map((f) => read.live(f as never) as { name: string });
  return fields.map((f) => f.name);
}

/** Titles of live teams or sites (listed when the config does not manage the kind), and the config's own. */
async function readTitles(
  api: ApiClient,
  org: string,
  live: readonly { title: string }[] | undefined,
  read: { list: (org: string) => ApiList; live: (item: never) => unknown },
  desired: readonly { title: string }[] | undefined,
): Promise<string[]> {
  const found =
    live ?? (await api.list(read.list(org))).map((x) => read.live(x as never) as { title: string });
  return [...new Set([...found.map((t) => t.title), ...(desired ?? []).map((t) => t.title)])];
}
