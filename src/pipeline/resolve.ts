import type { ApiClient } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import { locateInConfig } from '../config/origins.js';
import type { DiffProblem } from '../diff/draft.js';
import { absentHere, listIn, lookups } from '../kinds/registry.js';
import type { Lookup } from '../kinds/types.js';
import type { DesiredOrganization, DesiredState, LiveOrganization, LiveState } from '../reconcile/index.js';
import { referencesToCheck, type LiveProof } from '../plan/live-proof.js';
import { provenByLive, unresolvedReferences, type ConfigReference, type Known } from '../plan/references.js';

/**
 * Read what the config's references name and the live read did not prove (a space a site would
 * publish, a user a team would add, a custom field a space would set, a team or site by title),
 * and return a located plan problem for each reference nothing answers, by organization. Reads
 * only what is unproven: a config that matches live state costs no call.
 */
export async function resolveReferences(
  api: ApiClient,
  desired: DesiredState,
  live: LiveState,
  /** What the live read proved as its lists were read (`LiveProof`), by organization. */
  proofs?: ReadonlyMap<string, LiveProof>,
): Promise<Map<string, DiffProblem[]>> {
  const out = new Map<string, DiffProblem[]>();
  await Promise.all(
    desired.organizations.map(async (org) => {
      const liveOrg = live.organizations.find((l) => l.id === org.id);
      if (!liveOrg || liveOrg.readError !== undefined) return;
      const proof = proofs?.get(org.id);
      const proven = proof?.finish(liveOrg) ?? provenByLive(liveOrg);
      const check = referencesToCheck(org, liveOrg, proven, proof);
      if (check.length === 0) return;
      const known = await readKnown(api, org, liveOrg, check, proven);
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
  const at = locateInConfig(org, u.path, u.onKey);
  return {
    organization: org.id,
    code: 'unknown-reference',
    message: at ? `${at.file}:${at.line}:${at.column}: ${u.message}` : u.message,
    ...(at ? { at } : {}),
  };
}

/** The names of each target the references to check need, read as each target's lookup declares. */
async function readKnown(
  api: ApiClient,
  desired: DesiredOrganization,
  live: LiveOrganization,
  check: ConfigReference[],
  /** What the live state proves (the read's `LiveProof`, or `provenByLive`). */
  proven: ReturnType<typeof provenByLive>,
): Promise<Known> {
  const known: Known = new Map();
  await Promise.all(
    lookups
      .filter(({ lookup }) => check.some((r) => r.target === lookup.target))
      .filter(({ kind }) => !kind || !absentHere(kind, api.capabilities))
      .map(async ({ lookup, kind }) => {
        const ids = [...new Set(check.filter((r) => r.target === lookup.target).map((r) => r.id))];
        const names = [...(proven.get(lookup.target) ?? [])];
        if (lookup.get) names.push(...(await getEach(api, lookup, ids)));
        else if (kind && lookup.names) {
          const read = kind.reads.find((r) => !r.readOnly)!;
          const items =
            listIn(live, kind.key) ??
            (await api.list(read.list(desired.id))).map((x) => read.live(x as never));
          names.push(...items.flatMap((item) => lookup.names!(item as never)));
          for (const entry of listIn(desired, kind.key) ?? [])
            names.push(...(lookup.created?.(entry as never) ?? []));
        }
        known.set(lookup.target, { names: [...new Set(names)] });
      }),
  );
  return known;
}

/** One GET per id (the API cannot list them): the ids it answers. */
async function getEach(api: ApiClient, lookup: Lookup, ids: string[]): Promise<string[]> {
  const get = lookup.get!;
  const found = await Promise.all(
    ids.map(async (id) => {
      try {
        await api.request(get.call(id));
        return [id];
      } catch (error) {
        if (error instanceof ApiError && error.code === 'not-found') return [];
        throw error;
      }
    }),
  );
  return found.flat();
}
