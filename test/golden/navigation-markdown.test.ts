import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../src/plan/render-markdown.js';
import { renderNavigation } from '../../src/plan/render-navigation.js';
import { planCase } from '../helpers/golden.js';

describe('site navigation in the markdown plan', () => {
  it('shows the navigation now and after the plan, marked, for plans that touch site structure', async () => {
    const { plan, live } = await planCase('section-create-delete');
    const md = renderMarkdown(plan, { live });
    expect(md).toMatch(/#### Site navigation\n\n\*\*Now\*\*\n\n```\n/);
    expect(md).toMatch(/\*\*After this plan\*\*\n\n```diff\n[\s\S]*^\+ {3,}\S/m);
    expect(md.indexOf('Site navigation')).toBeLessThan(md.indexOf('<details><summary>org_'));
    expect(renderMarkdown(plan)).not.toContain('Site navigation');
  });

  it('leaves it out for plans that touch no site, collapses it when large, and keeps within the cap', async () => {
    const team = await planCase('team-create-with-members');
    expect(renderMarkdown(team.plan, { live: team.live })).not.toContain('Site navigation');
    const big = await planCase('sections-random');
    const md = renderMarkdown(big.plan, { live: big.live });
    expect(md).toContain('<details><summary>Site navigation: now and after this plan</summary>');
    const full = md.length;
    const capped = renderMarkdown(big.plan, { live: big.live, limit: full - 10 });
    expect(capped.length).toBeLessThanOrEqual(full - 10);
    expect(capped).toContain('Site navigation left out');
  });

  it('draws the organizations whose navigation the plan changes, not one with only a share link change', async () => {
    const { plan, live } = await planCase('section-create-delete');
    const org = live.organizations[0]!;
    const other = { ...org, id: 'org_other' };
    const shareLink = {
      ...plan.changes[0]!,
      id: 'c999',
      kind: 'share-link' as const,
      address: `org_other/sites/${org.sites![0]!.title}/share-links/preview`,
    };
    const nav = renderNavigation([...plan.organizations, 'org_other'], { organizations: [org, other] }, [
      ...plan.changes,
      shareLink,
    ]);
    expect(nav).toContain(org.id);
    expect(nav).not.toContain('org_other');
  });

  it('cannot be broken out of by a title with backticks', async () => {
    const { plan, live } = await planCase('section-create-delete');
    const site = live.organizations[0]!.sites![0]!;
    const evil = {
      ...live,
      organizations: [{ ...live.organizations[0]!, sites: [{ ...site, title: 'a ``` b' }] }],
    };
    const nav = renderNavigation(plan.organizations, evil, plan.changes);
    expect(nav).toContain('````\n');
    expect(nav).not.toMatch(/^```\n/m);
  });
});
