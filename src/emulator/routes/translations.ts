import { badRequest, notFound } from '../errors.js';
import { paginate } from '../paginate.js';
import type { EmuOrganization, EmuTranslation } from '../state.js';
import { findOrg, findSpaceAnywhere, newId, now } from '../store.js';
import { asBody, optEnum, reqString } from '../validate.js';
import { flavoredLocation, type RouteDeps } from './context.js';

/** `TranslationLanguage` of the official document. */
export const translationLanguages = [
  'en', 'fr', 'de', 'es', 'it', 'pt', 'pt-br', 'ru', 'ja', 'zh', 'zh-tw', 'yue', 'ko', 'ar', 'hi', 'nl',
  'pl', 'tr', 'sv', 'no', 'da', 'fi', 'el', 'cs', 'hu', 'ro', 'th', 'vi', 'id', 'ms', 'he', 'uk', 'sk',
  'bg', 'hr', 'lt', 'lv', 'et', 'sl',
] as const; // prettier-ignore

const emptyDocument = { object: 'document', data: {}, nodes: [] };

/** A JSON document (`JSONDocument`): `object: "document"`, `data` and `nodes`; the blocks are not checked. */
function document(value: unknown, field: string): Record<string, unknown> {
  const doc = asBody(value, true);
  if (doc['object'] !== 'document') throw badRequest(`${field}.object: must be document`);
  if (typeof doc['data'] !== 'object' || doc['data'] === null || Array.isArray(doc['data']))
    throw badRequest(`${field}.data: must be an object`);
  if (!Array.isArray(doc['nodes'])) throw badRequest(`${field}.nodes: must be an array`);
  return doc;
}

/** A translation as the flavor answers it: today's translation of a space, or api.md's settings. */
function translationShape(deps: RouteDeps, org: EmuOrganization, t: EmuTranslation) {
  const location = flavoredLocation(deps, `/orgs/${org.id}/translations/${t.id}`);
  return deps.flavor === 'current'
    ? {
        object: 'translation',
        id: t.id,
        status: (t.runs ?? 0) > 0 ? 'completed' : 'pending',
        source: t.source,
        language: t.language,
        instructions: t.instructions ?? emptyDocument,
        createdAt: t.createdAt,
        updatedAt: t.updatedAt,
        stats: {
          runs: t.runs ?? 0,
          totalWords: 0,
          totalPages: 0,
          totalDuration: 0,
          latestRunDuration: 0,
          latestPages: 0,
          latestWords: 0,
        },
        permissions: { view: true, edit: true },
        urls: { location },
      }
    : {
        object: 'translation-settings',
        id: t.id,
        title: t.title,
        languages: [],
        createdAt: t.createdAt,
        updatedAt: t.updatedAt,
        permissions: { view: true, edit: true },
        urls: { location },
      };
}

/**
 * Translations. `seed` serves api.md's translation settings (`{title}`); `current` serves today's
 * translation of a source space into a language. Each flavor sees only the translations of its shape.
 */
export function registerTranslations(deps: RouteDeps): void {
  const { state, router, flavor } = deps;
  const base = '/orgs/:orgId/translations';
  const mine = (t: EmuTranslation) => (flavor === 'current' ? t.source !== undefined : t.title !== undefined);
  const list = (org: EmuOrganization) => (org.translations ??= []);
  const find = (org: EmuOrganization, id: string) => {
    const t = list(org).find((x) => x.id === id && mine(x));
    if (!t) throw notFound(`translation ${id} not found`);
    return t;
  };
  const shape = (org: EmuOrganization, t: EmuTranslation) => translationShape(deps, org, t);

  router.on('GET', base, ({ params, query }) => {
    const org = findOrg(state(), params.orgId!);
    const items = list(org)
      .filter(mine)
      .map((t) => shape(org, t));
    return { status: 200, body: paginate(items, query) };
  });
  router.on('POST', base, ({ params, body }) => {
    const org = findOrg(state(), params.orgId!);
    const b = asBody(body, true);
    const t: EmuTranslation = { id: newId('tr'), createdAt: now(), updatedAt: now() };
    if (flavor === 'current') {
      const source = asBody(b['source'], true);
      const space = reqString(source, 'space');
      if (findSpaceAnywhere(state(), space).org !== org)
        throw badRequest('source.space: not a space of this organization');
      t.source = {
        space,
        language: optEnum(source, 'language', translationLanguages, { required: true })!,
      };
      t.language = optEnum(b, 'language', translationLanguages, { required: true })!;
      if (t.language === t.source.language) throw badRequest('language: must differ from source.language');
      t.instructions = b['instructions'] === undefined ? null : document(b['instructions'], 'instructions');
    } else t.title = reqString(b, 'title', { min: 1, max: 100 });
    list(org).push(t);
    return { status: 201, body: shape(org, t) };
  });
  router.on('GET', `${base}/:id`, ({ params }) => {
    const org = findOrg(state(), params.orgId!);
    return { status: 200, body: shape(org, find(org, params.id!)) };
  });
  router.on('PUT', `${base}/:id`, ({ params, body }) => {
    const org = findOrg(state(), params.orgId!);
    const t = find(org, params.id!);
    const b = asBody(body, true);
    if (flavor === 'current') t.instructions = document(b['instructions'], 'instructions');
    else t.title = reqString(b, 'title', { min: 1, max: 100 });
    t.updatedAt = now();
    return { status: 200, body: shape(org, t) };
  });
  router.on('DELETE', `${base}/:id`, ({ params }) => {
    const org = findOrg(state(), params.orgId!);
    const t = find(org, params.id!);
    list(org).splice(list(org).indexOf(t), 1);
    return { status: 205 };
  });
  if (flavor === 'current')
    router.on('POST', `${base}/:id/run`, ({ params }) => {
      const t = find(findOrg(state(), params.orgId!), params.id!);
      t.runs = (t.runs ?? 0) + 1;
      t.updatedAt = now();
      return { status: 204 };
    });
}
