import type { ApiClient } from '../api/client.js';
import type { ChangeOp, Position } from '../model/index.js';
import { resolvePatch, resolvePosition, resolveRef, type Produced } from './resolve.js';

/** Ids an operation produced (creations), or an empty record. */
export type OpOutput = Record<string, string>;

/** Make the single API call of one change. */
export async function executeOp(api: ApiClient, op: ChangeOp, produced: Produced): Promise<OpOutput> {
  const r = (ref: Parameters<typeof resolveRef>[0]) => resolveRef(ref, produced);
  switch (op.type) {
    case 'create-site': {
      const site = await api.createSite(op.org, {
        title: op.title,
        ...(op.visibility ? { visibility: op.visibility } : {}),
      });
      return { id: site.id };
    }
    case 'update-site':
      await api.updateSite(op.org, r(op.site), resolvePatch(op.patch, produced));
      return {};
    case 'delete-site':
      await api.deleteSite(op.org, r(op.site));
      return {};
    case 'create-section': {
      const section = await api.createSection(op.org, r(op.site), {
        spaceId: op.spaceId,
        ...(op.title !== undefined ? { title: op.title } : {}),
      });
      return sectionOutput(section);
    }
    case 'update-section':
      await api.updateSection(op.org, r(op.site), r(op.section), resolvePatch(op.patch, produced));
      return {};
    case 'delete-section':
      await api.deleteSection(op.org, r(op.site), r(op.section));
      return {};
    case 'move-section':
      if (api.flavor === 'current')
        await api.sortStructure(
          op.org,
          r(op.site),
          sortBody('site-section', r(op.section), op.position, produced),
        );
      else
        await api.moveSection(
          op.org,
          r(op.site),
          r(op.section),
          resolvePosition(op.position, 'site-section', 'siteSection', produced),
        );
      return {};
    case 'create-section-group': {
      const group = await api.createSectionGroup(op.org, r(op.site), {
        title: op.title,
        ...(op.icon !== undefined ? { icon: op.icon } : {}),
        sections: op.sections.map(r),
      });
      return { id: group.id };
    }
    case 'update-section-group':
      await api.updateSectionGroup(op.org, r(op.site), r(op.group), resolvePatch(op.patch, produced));
      return {};
    case 'delete-section-group':
      await api.deleteSectionGroup(op.org, r(op.site), r(op.group));
      return {};
    case 'move-section-group':
      if (api.flavor === 'current')
        await api.sortStructure(
          op.org,
          r(op.site),
          sortBody('site-section-group', r(op.group), op.position, produced),
        );
      else
        await api.moveSectionGroup(
          op.org,
          r(op.site),
          r(op.group),
          resolvePosition(op.position, 'site-section', 'id', produced),
        );
      return {};
    case 'add-group-section':
      // Today's API: membership is a field of the section.
      if (api.flavor === 'current')
        await api.updateSection(op.org, r(op.site), r(op.section), { siteSectionGroupId: r(op.group) });
      else await api.addGroupSection(op.org, r(op.site), r(op.group), r(op.section));
      return {};
    case 'remove-group-section':
      if (api.flavor === 'current')
        await api.updateSection(op.org, r(op.site), r(op.section), { siteSectionGroupId: null });
      else await api.removeGroupSection(op.org, r(op.site), r(op.group), r(op.section));
      return {};
    case 'create-site-space': {
      const ss = await api.createSiteSpace(op.org, r(op.site), {
        spaceId: op.spaceId,
        ...(op.section ? { sectionId: r(op.section) } : {}),
      });
      return { id: ss.id };
    }
    case 'update-site-space':
      await api.updateSiteSpace(op.org, r(op.site), r(op.siteSpace), resolvePatch(op.patch, produced));
      return {};
    case 'delete-site-space':
      await api.deleteSiteSpace(op.org, r(op.site), r(op.siteSpace));
      return {};
    case 'move-site-space':
      if (api.flavor === 'current')
        await api.sortStructure(
          op.org,
          r(op.site),
          sortBody('site-space', r(op.siteSpace), op.position, produced),
        );
      else
        await api.moveSiteSpace(
          op.org,
          r(op.site),
          r(op.siteSpace),
          resolvePosition(op.position, 'site-space', 'siteSpace', produced),
        );
      return {};
    case 'create-share-link': {
      const link = await api.createShareLink(op.org, r(op.site), op.name);
      return { id: link.id };
    }
    case 'update-share-link':
      await api.updateShareLink(op.org, r(op.site), r(op.shareLink), resolvePatch(op.patch, produced));
      return {};
    case 'delete-share-link':
      await api.deleteShareLink(op.org, r(op.site), r(op.shareLink));
      return {};
    case 'create-custom-field': {
      const field = await api.createCustomField(op.org, op.field);
      return { id: field.id ?? field.name };
    }
    case 'update-custom-field':
      await api.updateCustomField(op.org, op.name, op.patch);
      return {};
    case 'delete-custom-field':
      await api.deleteCustomField(op.org, op.name);
      return {};
    case 'set-space-custom-fields':
      await api.setSpaceCustomFields(op.spaceId, op.values);
      return {};
    case 'create-team': {
      const team = await api.createTeam(op.org, op.title);
      return { id: team.id };
    }
    case 'update-team':
      await api.updateTeam(op.org, r(op.team), op.title);
      return {};
    case 'delete-team':
      await api.deleteTeam(op.org, r(op.team));
      return {};
    case 'update-organization':
      await api.updateOrganization(op.org, resolvePatch(op.patch, produced));
      return {};
    case 'update-member':
      await api.updateMember(op.org, op.userId, op.role);
      return {};
    case 'remove-member':
      await api.removeMember(op.org, op.userId);
      return {};
    case 'create-collection': {
      const c = await api.createCollection(op.org, {
        title: op.title,
        ...(op.parent ? { parent: r(op.parent) } : {}),
      });
      return { id: c.id };
    }
    case 'update-collection':
      await api.updateCollection(r(op.collection), resolvePatch(op.patch, produced));
      return {};
    case 'move-collection':
      await api.moveCollection(r(op.collection), op.parent ? r(op.parent) : null);
      return {};
    case 'delete-collection':
      await api.deleteCollection(r(op.collection));
      return {};
    case 'update-space':
      await api.updateSpace(op.spaceId, resolvePatch(op.patch, produced));
      return {};
    case 'move-space':
      await api.moveSpace(op.spaceId, op.parent ? r(op.parent) : null);
      return {};
    case 'create-openapi-spec':
      await api.createOpenApiSpec(op.org, op.slug, op.url);
      return { id: op.slug };
    case 'update-openapi-spec':
      await api.putOpenApiSpec(op.org, op.slug, op.url);
      return {};
    case 'delete-openapi-spec':
      await api.deleteOpenApiSpec(op.org, op.slug);
      return {};
    case 'create-saml-provider': {
      const p = await api.createSamlProvider(op.org, resolvePatch(op.body, produced));
      return { id: p.id };
    }
    case 'update-saml-provider':
      await api.updateSamlProvider(op.org, r(op.provider), resolvePatch(op.patch, produced));
      return {};
    case 'delete-saml-provider':
      await api.deleteSamlProvider(op.org, r(op.provider));
      return {};
    case 'create-translation': {
      const t = await api.createTranslation(op.org, op.title);
      return { id: t.id };
    }
    case 'update-translation':
      await api.updateTranslation(op.org, r(op.translation), op.title);
      return {};
    case 'delete-translation':
      await api.deleteTranslation(op.org, r(op.translation));
      return {};
    case 'set-adaptive-schema':
      await api.putAdaptiveSchema(op.org, r(op.site), op.jsonSchema);
      return {};
    case 'publish-site':
      await api.publishSite(op.org, r(op.site));
      return {};
    case 'unpublish-site':
      await api.unpublishSite(op.org, r(op.site));
      return {};
    case 'set-team-members':
      await api.setTeamMembers(op.org, r(op.team), {
        add: op.add,
        remove: op.remove,
        memberships: op.memberships,
      });
      return {};
  }
}

export function sectionOutput(section: {
  id: string;
  siteSpaces: { id: string; space: { id: string } }[];
}): OpOutput {
  const out: OpOutput = { id: section.id };
  for (const ss of section.siteSpaces) out[`siteSpace:${ss.space.id}`] = ss.id;
  return out;
}

/** Today's `PATCH /sites/{id}/structure/sort` body. */
function sortBody(type: string, id: string, position: Position, produced: Produced): Record<string, unknown> {
  const where = position.before ? 'before' : 'after';
  return {
    item: { type, id },
    position: { [where]: { type, id: resolveRef((position.before ?? position.after)!, produced) } },
  };
}
