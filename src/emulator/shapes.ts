import { externalLinkKind } from '../kinds/external-link.js';
import type { EmulatedContext } from '../kinds/emulated.js';
import { levelOf, linksOf, type NavItem } from './nav-order.js';
import { spaceIn } from './store.js';
import type {
  EmuCustomField,
  EmuGroup,
  EmuMember,
  EmuOrganization,
  EmuSection,
  EmuSite,
  EmuSiteSpace,
  EmuSpace,
  EmuTeam,
  EmuCollection,
} from './state.js';

/**
 * Serializers: the emulator's state in the API's object shapes: api.md's in `seed`, the official
 * document's (required properties included) in `current`.
 */
export type Shapes = ReturnType<typeof makeShapes>;

/** The app's and published sites' base URLs in answers. */
export const APP_URL = 'https://app.emulator.local';
export const PUBLISHED_URL = 'https://docs.emulator.local';

type ShapeContext = {
  baseUrl: () => string;
  flavor: 'seed' | 'current';
  current: boolean;
  /** Fields only today's API has: present in `current`, absent in `seed`. */
  only: <T extends object>(fields: T) => T | Record<string, never>;
};

export function makeShapes(baseUrl: () => string, flavor: 'seed' | 'current' = 'seed') {
  const current = flavor === 'current';
  const ctx: ShapeContext = { baseUrl, flavor, current, only: (fields) => (current ? fields : {}) };
  const people = peopleShapes(ctx);
  const content = contentShapes(ctx);
  const siteSpace = siteSpaceShape(ctx, content.space);
  const structure = structureShapes(ctx, siteSpace);
  return {
    user: people.user,
    member: people.member,
    organization: organizationShape(ctx),
    collection: content.collection,
    space: content.space,
    team: people.team,
    siteSpace,
    section: structure.section,
    group: structure.group,
    navItem: structure.navItem,
    site: siteShape(ctx),
    customField: customFieldShape(ctx),
  };
}

/** Users, members and teams. */
function peopleShapes(ctx: ShapeContext) {
  const { baseUrl, only } = ctx;
  const user = (m: EmuMember) => ({
    object: 'user',
    id: m.user.id,
    displayName: m.user.displayName,
    email: m.user.email,
    urls: { location: `${baseUrl()}/v1/users/${m.user.id}` },
  });

  /** `teams`: the member's number of teams, when the caller counted it already (one pass for a page). */
  const member = (org: EmuOrganization, m: EmuMember, teams?: number) => ({
    object: 'member',
    id: m.user.id,
    role: m.role,
    user: user(m),
    disabled: m.disabled,
    joinedAt: m.joinedAt,
    sso: false,
    spaces: 0,
    teams: teams ?? org.teams.filter((t) => t.members.some((tm) => tm.userId === m.user.id)).length,
    ...only({ sites: org.sites.length }),
  });

  const team = (t: EmuTeam) => ({
    object: 'team',
    id: t.id,
    title: t.title,
    members: t.members.length,
    spaces: 0,
    createdAt: t.createdAt,
    permissions: { admin: true, view: true },
  });

  return { user, member, team };
}

function organizationShape(ctx: ShapeContext) {
  const { baseUrl, only } = ctx;
  const app = APP_URL;
  return (org: EmuOrganization) => ({
    object: 'organization',
    id: org.id,
    title: org.title,
    createdAt: org.createdAt,
    emailDomains: org.emailDomains,
    ...(org.hostname ? { hostname: org.hostname } : {}),
    type: 'business',
    defaultRole: org.defaultRole,
    ...(org.defaultContent ? { defaultContent: { type: 'site', site: org.defaultContent } } : {}),
    sso: org.sso,
    ai: org.ai,
    inviteLinks: org.inviteLinks,
    plan: 'free_2024',
    ...only({ mergeRules: { type: 'none' }, trial: { status: 'notapplicable', count: 0 } }),
    urls: {
      location: `${baseUrl()}/v1/orgs/${org.id}`,
      app: `${app}/o/${org.id}`,
      ...(org.logo ? { logo: org.logo } : {}),
    },
    permissions: {
      view: true,
      admin: true,
      ownTeam: true,
      createContent: true,
      listMembers: true,
      listTeams: true,
      ...only({
        access: true,
        createOpenAPISpec: true,
        viewBilling: true,
        listIntegrations: true,
        listInstallations: true,
        installIntegration: true,
      }),
    },
  });
}

/** Collections and spaces. */
function contentShapes(ctx: ShapeContext) {
  const { baseUrl, only } = ctx;
  const app = APP_URL;
  const collection = (org: EmuOrganization, c: EmuCollection) => ({
    object: 'collection',
    id: c.id,
    title: c.title,
    ...(c.description !== null ? { description: c.description } : {}),
    organization: org.id,
    ...(c.parent ? { parent: c.parent } : {}),
    defaultLevel: c.defaultLevel,
    urls: { location: `${baseUrl()}/v1/collections/${c.id}`, app: `${app}/o/${org.id}/c/${c.id}` },
    permissions: { view: true, admin: true, viewInviteLinks: true, create: true },
  });

  const space = (org: EmuOrganization, s: EmuSpace) => ({
    object: 'space',
    id: s.id,
    title: s.title,
    emoji: s.emoji,
    visibility: s.visibility,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    ...(s.editMode ? { editMode: s.editMode } : {}),
    organization: org.id,
    ...(s.parent ? { parent: s.parent } : {}),
    revision: `rev_${s.id}`,
    defaultLevel: s.defaultLevel,
    comments: 0,
    changeRequests: 0,
    changeRequestsOpen: 0,
    changeRequestsDraft: 0,
    ...only({ mergeRules: { type: 'inherit' } }),
    urls: { location: `${baseUrl()}/v1/spaces/${s.id}`, app: `${app}/s/${s.id}` },
    permissions: {
      view: true,
      access: true,
      admin: true,
      edit: true,
      comment: true,
      merge: true,
      review: true,
      ...only({ viewInviteLinks: true, triggerGitSync: true, installIntegration: true }),
    },
  });

  return { collection, space };
}

function siteSpaceShape(ctx: ShapeContext, space: ReturnType<typeof contentShapes>['space']) {
  const { only } = ctx;
  const pub = PUBLISHED_URL;
  return (org: EmuOrganization, site: EmuSite, ss: EmuSiteSpace) => {
    const sp = spaceIn(org, ss.spaceId);
    const section = ss.sectionId ? site.sections.find((s) => s.id === ss.sectionId) : undefined;
    const isDefault = section ? section.defaultSiteSpaceId === ss.id : site.defaultRootSiteSpaceId === ss.id;
    return {
      object: 'site-space',
      id: ss.id,
      path: ss.path,
      ...(ss.sectionId ? { section: ss.sectionId } : {}),
      space: sp ? space(org, sp) : { object: 'space', id: ss.spaceId },
      title: sp?.title ?? ss.spaceId,
      default: isDefault,
      ...(ss.condition !== null ? { condition: ss.condition } : {}),
      ...only({
        draft: ss.draft ?? false,
        ...(ss.hidden ? { hidden: true } : {}),
        ...(ss.pageId ? { pageId: ss.pageId } : {}),
      }),
      urls: { published: `${pub}/${site.id}/${section ? `${section.path}/` : ''}${ss.path}` },
    };
  };
}

/** Sections, section groups and a level of the navigation (groups with their children). */
function structureShapes(ctx: ShapeContext, siteSpace: ReturnType<typeof siteSpaceShape>) {
  const { flavor, current, only } = ctx;
  const pub = PUBLISHED_URL;
  /** What a link's answer is given (it uses none of it). */
  const linkContext: EmulatedContext = {
    flavor,
    now: () => '',
    id: () => '',
    secret: () => '',
    org: '',
    urls: { api: '', app: APP_URL, docs: PUBLISHED_URL },
  };

  const section = (org: EmuOrganization, site: EmuSite, sec: EmuSection) => ({
    object: 'site-section',
    id: sec.id,
    title: sec.title,
    ...(sec.description !== null ? { description: sec.description } : {}),
    default: site.defaultSectionId === sec.id,
    path: sec.path,
    ...(sec.condition !== null ? { condition: sec.condition } : {}),
    ...(sec.groupId ? { sectionGroup: sec.groupId } : {}),
    ...(sec.icon !== null ? { icon: sec.icon } : {}),
    ...only({
      draft: sec.draft ?? false,
      ...(sec.localizedTitle ? { localizedTitle: sec.localizedTitle } : {}),
      ...(sec.localizedDescription ? { localizedDescription: sec.localizedDescription } : {}),
    }),
    siteSpaces: site.siteSpaces.filter((ss) => ss.sectionId === sec.id).map((ss) => siteSpace(org, site, ss)),
    urls: { published: `${pub}/${site.id}/${sec.path}` },
  });

  /** One item of a level of the navigation (today's API), groups with their children. */
  const navItem = (org: EmuOrganization, site: EmuSite, item: NavItem): unknown => {
    if (item.type === 'site-section')
      return section(
        org,
        site,
        site.sections.find((s) => s.id === item.id)!,
      );
    if (item.type === 'site-section-group')
      return group(
        org,
        site,
        site.groups.find((g) => g.id === item.id)!,
      );
    const link = linksOf(site).find((l) => l.id === item.id)!;
    const answer = externalLinkKind.emulator!.answer(link as never, linkContext) as Record<string, unknown>;
    // Its group, as the structure answers it (omitted for a root link).
    return link.groupId ? { ...answer, sectionGroup: link.groupId } : answer;
  };

  const group = (org: EmuOrganization, site: EmuSite, g: EmuGroup): Record<string, unknown> => {
    const sections = site.sections.filter((s) => s.groupId === g.id).map((s) => section(org, site, s));
    return {
      object: 'site-section-group',
      id: g.id,
      title: g.title,
      ...(g.icon !== null ? { icon: g.icon } : {}),
      sections,
      ...only({
        draft: g.draft ?? false,
        ...(g.localizedTitle ? { localizedTitle: g.localizedTitle } : {}),
        ...(g.parentId ? { sectionGroup: g.parentId } : {}),
        children: current ? levelOf(site, g.id).map((item) => navItem(org, site, item)) : [],
      }),
    };
  };

  return { section, group, navItem };
}

function siteShape(ctx: ShapeContext) {
  const { baseUrl, flavor, only } = ctx;
  const app = APP_URL;
  const pub = PUBLISHED_URL;
  return (org: EmuOrganization, s: EmuSite) => ({
    object: 'site',
    id: s.id,
    type: s.type,
    ...only({ appliedType: s.type }),
    title: s.title,
    ...(s.hostname ? { hostname: s.hostname } : {}),
    ...(s.basename !== null ? { basename: s.basename } : {}),
    ...(s.proxy !== null ? { proxy: { origin: s.proxy, target: `${pub}/${s.id}` } } : {}),
    visibility: s.visibility,
    ...only({
      defaultLevel: s.defaultLevel ?? null,
      permissions: {
        view: true,
        access: true,
        edit: true,
        create: true,
        admin: true,
        installIntegration: true,
        viewAdaptiveSchema: true,
        editAdaptiveSchema: true,
      },
    }),
    published: s.published,
    siteSpaces: s.siteSpaces.length,
    createdAt: s.createdAt,
    adaptiveContent: s.adaptiveContent,
    ...(flavor === 'seed' ? { agentsContext: s.agentsContext } : {}),
    features: [],
    urls: {
      location: `${baseUrl()}/v1/orgs/${org.id}/sites/${s.id}`,
      app: `${app}/o/${org.id}/sites/${s.id}`,
      published: `${pub}/${s.id}`,
      ...only({ preview: `${pub}/~preview/${s.id}` }),
    },
  });
}

function customFieldShape(ctx: ShapeContext) {
  const { baseUrl } = ctx;
  return (org: EmuOrganization, f: EmuCustomField) => ({
    object: 'custom-field',
    id: f.id,
    name: f.name,
    type: f.type,
    ...(f.title !== null ? { title: f.title } : {}),
    ...(f.description !== null ? { description: f.description } : {}),
    ...(f.placeholder !== null ? { placeholder: f.placeholder } : {}),
    ...(f.options !== null ? { options: f.options } : {}),
    createdAt: f.createdAt,
    updatedAt: f.updatedAt,
    urls: { location: `${baseUrl()}/v1/orgs/${org.id}/custom-fields/${f.name}` },
    permissions: { view: true, edit: true },
  });
}
