import { TEST_PEM } from './certificates.js';
import { baseSeed } from './emulator.js';

/** An organization with every kind docsync exports, made by seeding (outside docsync). */
export function richSeed() {
  const seed = baseSeed(12);
  const o = (seed.organizations as any[])[0];
  seed.tokenUser = 'user_a';
  o.defaultContent = undefined;
  o.settings = { inviteLinks: true, ai: true };
  o.collections = [
    { id: 'col_1', title: 'Product', description: 'All product docs' },
    { id: 'col_2', title: 'APIs', parent: 'col_1' },
  ];
  o.spaces[0].parent = 'col_2';
  o.openapi = [{ slug: 'petstore', source: 'https://example.com/petstore.yaml' }];
  o.saml = [
    {
      label: 'Okta',
      entityID: 'http://okta/abc',
      ssoURL: 'https://okta.example/sso',
      certificate: TEST_PEM.trim(),
      defaultRole: 'read',
    },
  ];
  o.translations = [{ title: 'French' }];
  o.customFields = [
    { name: 'owner', type: 'text', title: 'Owner', description: 'Who owns it', placeholder: 'team' },
    { name: 'tier', type: 'select:single', options: ['gold', 'silver'] },
    { name: 'tags', type: 'tags' },
  ];
  o.spaces[0].customFields = { owner: 'docs', tier: 'gold', tags: ['a', 'b'] };
  o.teams = [
    { title: 'Writers', members: [{ user: 'user_a', role: 'owner' }, 'user_b'] },
    { title: 'Twins', members: [] },
    { title: 'Twins', members: ['user_c'] },
  ];
  o.sites = [
    {
      title: 'Developer Docs',
      visibility: 'unlisted',
      basename: 'docs',
      proxy: 'company.com/docs',
      agentsContext: 'excluded',
      adaptiveContent: { enabled: true },
      shareLinks: [{ name: 'partner', active: false }, { name: 'preview' }],
      sectionGroups: [{ title: 'Products', icon: 'box' }, { title: 'Empty' }],
      sections: [
        {
          title: 'Guides',
          path: 'guides',
          icon: 'book',
          description: 'How-to',
          sectionGroup: 'Products',
          siteSpaces: [
            { space: 'space_1', path: 'v2' },
            { space: 'space_2', path: 'v1', default: true, condition: 'visitor.claims.beta' },
          ],
        },
        {
          title: 'API',
          path: 'api',
          condition: 'visitor.claims.dev',
          default: true,
          siteSpaces: [{ space: 'space_3' }],
        },
        {
          title: 'Changelog',
          path: 'changelog',
          sectionGroup: 'Products',
          siteSpaces: [{ space: 'space_4' }],
        },
      ],
    },
    {
      title: 'Handbook',
      siteSpaces: [
        { space: 'space_5', path: 'hb' },
        { space: 'space_6', default: true },
      ],
    },
    { title: 'Twin site' },
    { title: 'Twin site' },
  ];
  return seed;
}
