import type { ApiClient } from '../api/client.js';
import type { ChangeOp } from '../model/index.js';
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
      const section = await api.createSection(op.org, r(op.site), { spaceId: op.spaceId, title: op.title });
      return sectionOutput(section);
    }
    case 'update-section':
      await api.updateSection(op.org, r(op.site), r(op.section), resolvePatch(op.patch, produced));
      return {};
    case 'delete-section':
      await api.deleteSection(op.org, r(op.site), r(op.section));
      return {};
    case 'move-section':
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
      await api.moveSectionGroup(
        op.org,
        r(op.site),
        r(op.group),
        resolvePosition(op.position, 'site-section', 'id', produced),
      );
      return {};
    case 'add-group-section':
      await api.addGroupSection(op.org, r(op.site), r(op.group), r(op.section));
      return {};
    case 'remove-group-section':
      await api.removeGroupSection(op.org, r(op.site), r(op.group), r(op.section));
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
