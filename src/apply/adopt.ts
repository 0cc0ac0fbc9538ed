import type { ApiClient } from '../api/client.js';
import type { ChangeOp } from '../model/index.js';
import { sectionOutput, type OpOutput } from './execute-op.js';
import { resolveRef, type Produced } from './resolve.js';

/**
 * After a creation failed ambiguously (the request may have reached the server), re-read the
 * parent's list and find the object by its identity. Returns its ids, or null when it does not
 * exist (the creation can be sent again safely). Only creations have an adoption rule.
 */
export async function findCreated(
  api: ApiClient,
  op: ChangeOp,
  produced: Produced,
): Promise<OpOutput | null> {
  const r = (ref: Parameters<typeof resolveRef>[0]) => resolveRef(ref, produced);
  switch (op.type) {
    case 'create-site': {
      const site = (await api.listSites(op.org)).find((s) => s.title === op.title);
      return site ? { id: site.id } : null;
    }
    case 'create-section': {
      const section = (await api.listSections(op.org, r(op.site))).find((s) =>
        s.siteSpaces.some((ss) => ss.space.id === op.spaceId),
      );
      return section ? sectionOutput(section) : null;
    }
    case 'create-site-space': {
      const ss = (await api.listSiteSpaces(op.org, r(op.site))).find((s) => s.space.id === op.spaceId);
      return ss ? { id: ss.id } : null;
    }
    case 'create-section-group': {
      const g = (await api.listSectionGroups(op.org, r(op.site))).find((x) => x.title === op.title);
      return g ? { id: g.id } : null;
    }
    case 'create-share-link': {
      const l = (await api.listShareLinks(op.org, r(op.site))).find((x) => x.name === op.name);
      return l ? { id: l.id } : null;
    }
    case 'create-custom-field': {
      const f = (await api.listCustomFields(op.org)).find((x) => x.name === op.field.name);
      return f ? { id: f.id ?? f.name } : null;
    }
    case 'create-team': {
      const t = (await api.listTeams(op.org)).find((x) => x.title === op.title);
      return t ? { id: t.id } : null;
    }
    case 'create-collection': {
      const parent = op.parent ? r(op.parent) : null;
      const c = (await api.listCollections(op.org)).find(
        (x) => x.title === op.title && (x.parent ?? null) === parent,
      );
      return c ? { id: c.id } : null;
    }
    case 'create-openapi-spec': {
      const s = (await api.listOpenApiSpecs(op.org)).find((x) => x.slug === op.slug);
      return s ? { id: s.slug } : null;
    }
    case 'create-saml-provider': {
      const p = (await api.listSamlProviders(op.org)).find((x) => x.label === op.body['label']);
      return p ? { id: p.id } : null;
    }
    case 'create-translation': {
      const t = (await api.listTranslations(op.org)).find((x) => x.title === op.title);
      return t ? { id: t.id } : null;
    }
    default:
      return null;
  }
}

export function isCreation(op: ChangeOp): boolean {
  return op.type.startsWith('create-');
}
