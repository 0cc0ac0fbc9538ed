import { z } from 'zod';
import type { ApiClient } from '../api/client.js';
import type { Plan } from '../plan/index.js';
import { sitePreviewCall } from '../kinds/site-parts.js';
import { siteAddress } from '../kinds/site.js';
import { STRUCTURE_KINDS } from '../plan/structure-node.js';
import type { LiveState } from '../reconcile/index.js';
import { redactText } from '../model/redact.js';

/** Where a reviewer sees a site with its drafts (today's API; the link expires in an hour). */
export type SitePreview = { organization: string; site: string; url: string };

const Preview = z.looseObject({ url: z.string() });

/** A preview URL the comment may link: https, no space or character that would end an autolink. */
const LINKABLE = /^https:\/\/[^\s<>"'`]+$/;

/**
 * The preview link of every live site whose navigation the plan changes (issue 30, staged
 * structure), drafts included. Today's API only (api.md
 * has no preview); a site the plan creates has none yet. Best effort: a site whose preview cannot
 * be read is left out, and why is returned.
 */
export async function sitePreviews(
  api: ApiClient,
  plan: Plan,
  live: LiveState,
): Promise<{ previews: SitePreview[]; notes: string[] }> {
  const previews: SitePreview[] = [];
  const notes: string[] = [];
  if (api.capabilities.flavor !== 'current') return { previews, notes };
  for (const org of live.organizations)
    for (const site of org.sites ?? []) {
      const prefix = `${siteAddress(org.id, site.title)}/`;
      const touched = plan.changes.some((c) => STRUCTURE_KINDS.has(c.kind) && c.address.startsWith(prefix));
      if (!touched) continue;
      try {
        const answer = await api.request(sitePreviewCall(org.id, site.id));
        const url = Preview.parse(answer).url;
        // A comment is read by whoever reads the repository: a link that carries a credential is not posted.
        if (redactText(url) !== url)
          notes.push(`site "${site.title}": its preview link carries a credential; not posted`);
        else if (LINKABLE.test(url)) previews.push({ organization: org.id, site: site.title, url });
        else notes.push(`site "${site.title}": its preview URL is not a plain https URL; left out`);
      } catch (error) {
        notes.push(`site "${site.title}": no preview link (${(error as Error).message})`);
      }
    }
  return { previews, notes };
}
