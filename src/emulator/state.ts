import type { CustomFieldValue } from '../model/kinds.js';

/** The emulator's whole state: plain JSON, so it can be dumped, seeded and persisted as is. */
export type EmulatorState = {
  organizations: EmuOrganization[];
  /** The user the API token belongs to (`GET /user`). */
  tokenUser?: string | null;
};

export type EmuOpenApiSpec = {
  id: string;
  slug: string;
  /** The source URL, or null for a spec made from text (today's API). */
  source: string | null;
  /** The text a spec was made from (its raw content). */
  text?: string;
  createdAt: string;
  updatedAt: string;
  /** Today's API only (absent: private). */
  visibility?: 'private' | 'public';
};

export type EmuSamlProvider = {
  id: string;
  label: string;
  entityID: string | null;
  ssoURL: string | null;
  certificate: string | null;
  defaultTeam: string | null;
  defaultRole: string | null;
  createdAt: string;
};

/**
 * A translation in one of two shapes: api.md's translation settings (`title`), or today's
 * translation of a space into a language (`source`, `language`, `instructions`). Each flavor serves
 * the translations of its own shape only.
 */
export type EmuTranslation = {
  id: string;
  title?: string;
  source?: { space: string; language: string };
  language?: string;
  instructions?: Record<string, unknown> | null;
  runs?: number;
  createdAt: string;
  updatedAt: string;
};

export type EmuUser = { id: string; displayName: string; email: string };

export type EmuMember = { user: EmuUser; role: string | null; joinedAt: string; disabled: boolean };

export type EmuCollection = {
  id: string;
  title: string;
  description: string | null;
  parent: string | null;
  defaultLevel: string | null;
  /** Grants (today's API): team and user roles on it (src/emulator/routes/permissions.ts). */
  access?: EmuGrant[];
};

/** A team's or a user's role on a space, a collection or a site. */
export type EmuGrant = { team: string; role: string } | { user: string; role: string };

export type EmuSpace = {
  id: string;
  title: string;
  emoji: string;
  visibility: string;
  parent: string | null;
  editMode: string | null;
  defaultLevel: string | null;
  createdAt: string;
  updatedAt: string;
  customFields: Record<string, Exclude<CustomFieldValue, null>>;
  access?: EmuGrant[];
};

export type EmuTeam = {
  id: string;
  title: string;
  createdAt: string;
  members: { userId: string; role: 'owner' | 'member' }[];
};

export type EmuCustomField = {
  id: string;
  name: string;
  type: string;
  title: string | null;
  description: string | null;
  placeholder: string | null;
  options: string[] | null;
  createdAt: string;
  updatedAt: string;
};

export type EmuSection = {
  id: string;
  title: string;
  path: string;
  description: string | null;
  condition: string | null;
  icon: string | null;
  groupId: string | null;
  defaultSiteSpaceId: string | null;
  /** Today's API only (absent: false, none). */
  draft?: boolean;
  localizedTitle?: Record<string, string>;
  localizedDescription?: Record<string, string>;
};

export type EmuGroup = {
  id: string;
  title: string;
  icon: string | null;
  /** Today's API only (absent: false, none). */
  draft?: boolean;
  localizedTitle?: Record<string, string>;
  /** Today's API: the group it is nested in (absent or null: the site's root). */
  parentId?: string | null;
};

export type EmuSiteSpace = {
  id: string;
  spaceId: string;
  sectionId: string | null;
  path: string;
  condition: string | null;
  /** Today's API: the keys this site space overrides in the site's customization. */
  customization?: Record<string, unknown>;
  /** Today's API only (absent: false, null). */
  draft?: boolean;
  hidden?: boolean;
  pageId?: string | null;
};

export type EmuShareLink = { id: string; name: string; active: boolean; createdAt: string; token: string };

export type EmuSite = {
  id: string;
  type: string;
  title: string;
  visibility: string;
  published: boolean;
  basename: string | null;
  hostname: string | null;
  agentsContext: 'included' | 'excluded';
  adaptiveContent: { enabled: boolean };
  proxy: string | null;
  createdAt: string;
  adaptiveSchema: Record<string, unknown> | null;
  adaptiveSchemaUpdatedAt: string | null;
  defaultSectionId: string | null;
  defaultRootSiteSpaceId: string | null;
  /** Today's API only (absent: null). */
  defaultLevel?: string | null;
  sections: EmuSection[];
  groups: EmuGroup[];
  siteSpaces: EmuSiteSpace[];
  shareLinks: EmuShareLink[];
  /** Today's API: its navigation's external links (declared in src/kinds/external-link.ts). */
  externalLinks?: { id: string }[];
  /** Today's API: the order of its sections, groups and links (src/emulator/nav-order.ts); absent: that of the lists. */
  nav?: string[];
  access?: EmuGrant[];
  /** Today's API: the site's face (src/emulator/routes/site-face.ts); absent: the defaults, made on first read. */
  customization?: { document: Record<string, unknown>; updatedAt: string | null };
  agentSettings?: { settings: Record<string, unknown>; updatedAt: string };
  publishingAuth?: EmuPublishingAuth;
};

/** A site's visitor authentication: its backend, URLs and the private key it signs with. */
export type EmuPublishingAuth = {
  backend: 'custom' | 'integration';
  privateKey: string;
  fallbackURL: string | null;
  logoutURL: string | null;
};

export type EmuOrganization = {
  id: string;
  title: string;
  createdAt: string;
  emailDomains: string[];
  hostname: string | null;
  defaultRole: string | null;
  inviteLinks: boolean;
  sso: boolean;
  ai: boolean;
  members: EmuMember[];
  collections: EmuCollection[];
  spaces: EmuSpace[];
  teams: EmuTeam[];
  customFields: EmuCustomField[];
  sites: EmuSite[];
  defaultContent?: string | null;
  /** URL of the logo, served as `urls.logo` (absent: none). */
  logo?: string | null;
  openapi?: EmuOpenApiSpec[];
  saml?: EmuSamlProvider[];
  translations?: EmuTranslation[];
  /** The audit log, oldest first (src/emulator/audit.ts). */
  auditEvents?: EmuAuditEvent[];
};

export function emptyState(): EmulatorState {
  return { organizations: [] };
}

/** One recorded change: the official `AuditEvent` without its `object` and `urls` (added when served). */
export type EmuAuditEvent = {
  id: string;
  occurredAt: string;
  action: string;
  actor: { type: 'user'; id: string; label?: string };
  source: 'api' | 'ui';
  target: { type: string; id: string; label?: string };
};
