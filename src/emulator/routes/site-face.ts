import { randomBytes } from 'node:crypto';
import { AGENT_SETTINGS_DEFAULTS, siteAgentSettingsKind } from '../../kinds/site-agent-settings.js';
import {
  CUSTOMIZATION_ATOMIC,
  CUSTOMIZATION_DEFAULTS,
  OverridesConfig,
  siteCustomizationKind,
} from '../../kinds/site-customization.js';
import { parseBody } from '../declared.js';
import { badRequest } from '../errors.js';
import type { EmuPublishingAuth, EmuSite } from '../state.js';
import { findById, now } from '../store.js';
import { mergeSparse, sparseLeaves, withValueAt } from '../../kinds/sparse.js';
import { asBody, optEnum, optString } from '../validate.js';
import type { RouteDeps } from './context.js';
import { siteOf } from './site-helpers.js';

/**
 * Today's API's public face of a site (issue 30): its customization (one document, replaced whole
 * by PUT), its agent settings (the same) and its visitor authentication (PATCH, and a regenerated
 * private key). Served in the `current` flavor only; answers in the official document's shapes.
 */

/** The official document's required keys of a whole customization (SiteCustomizationSettingsBase). */
const CUSTOMIZATION_REQUIRED = [
  'styling',
  'internationalization',
  'favicon',
  'header',
  'footer',
  'themes',
  'feedback',
  'ai',
  'advancedCustomization',
  'trademark',
  'externalLinks',
  'pagination',
  'pageActions',
  'privacyPolicy',
  'socialPreview',
  'socialAccounts',
  'insights',
] as const;
const STYLING_REQUIRED = [
  'theme',
  'primaryColor',
  'infoColor',
  'successColor',
  'warningColor',
  'dangerColor',
  'corners',
  'depth',
  'links',
  'font',
  'monospaceFont',
  'codeTheme',
  'background',
  'icons',
  'sidebar',
  'search',
] as const;

const clone = <T>(value: T): T => structuredClone(value);
/** A fresh private key, as the API makes one (a secret: never in docsync's output). */
const newKey = () => randomBytes(32).toString('hex');

function customizationOf(site: EmuSite): NonNullable<EmuSite['customization']> {
  return (site.customization ??= { document: clone(CUSTOMIZATION_DEFAULTS), updatedAt: null });
}
function agentSettingsOf(site: EmuSite): NonNullable<EmuSite['agentSettings']> {
  return (site.agentSettings ??= { settings: clone(AGENT_SETTINGS_DEFAULTS), updatedAt: site.createdAt });
}
function authOf(site: EmuSite): EmuPublishingAuth {
  return (site.publishingAuth ??= {
    backend: 'custom',
    privateKey: newKey(),
    fallbackURL: null,
    logoutURL: null,
  });
}

function requireKeys(body: Record<string, unknown>, keys: readonly string[], prefix = ''): void {
  for (const key of keys) if (body[key] === undefined) throw badRequest(`${prefix}${key}: is required`);
}

/** A whole customization: the official required keys, each value as the official document says. */
function checkCustomization(body: unknown): Record<string, unknown> {
  const doc = parseBody(siteCustomizationKind.config, body) as Record<string, unknown>;
  requireKeys(doc, CUSTOMIZATION_REQUIRED);
  requireKeys(asBody(doc['styling'], true), STYLING_REQUIRED, 'styling.');
  return doc;
}

function checkAgentSettings(body: unknown): Record<string, unknown> {
  const settings = parseBody(siteAgentSettingsKind.config, body) as Record<string, Record<string, unknown>>;
  requireKeys(settings, ['scans', 'findings', 'editing']);
  requireKeys(settings['scans']!, ['topics'], 'scans.');
  requireKeys(settings['findings']!, ['changeRequests'], 'findings.');
  requireKeys(settings['editing']!, ['customInstructions'], 'editing.');
  return settings;
}

/** The keys a site space may override (the official PATCH body's); null resets one. */
const OVERRIDES = new Set([
  'title',
  'localizedTitle',
  'styling',
  'internationalization',
  'favicon',
  'announcement',
  'header',
  'footer',
  'themes',
  'feedback',
  'externalLinks',
  'pagination',
  'trademark',
  'privacyPolicy',
  'socialPreview',
]);

function checkOverrides(body: unknown): Record<string, unknown> {
  const b = asBody(body, true);
  for (const key of Object.keys(b))
    if (!OVERRIDES.has(key)) throw badRequest(`${key}: cannot be overridden by a site space`);
  parseBody(OverridesConfig, b);
  return b;
}

/** The document without the value at a deep path (objects left empty on the way are dropped). */
function withoutValueAt(doc: Record<string, unknown>, path: readonly string[]): Record<string, unknown> {
  const [key, ...rest] = path;
  if (key === undefined || !(key in doc)) return doc;
  const { [key]: value, ...others } = doc;
  if (rest.length === 0 || value === null || typeof value !== 'object' || Array.isArray(value)) return others;
  const inner = withoutValueAt(value as Record<string, unknown>, rest);
  return Object.keys(inner).length > 0 ? { ...others, [key]: inner } : others;
}

/** A site space's overrides after a PATCH: each key given set, each null one removed. */
function patchOverrides(current: Record<string, unknown>, patch: Record<string, unknown>) {
  return sparseLeaves(patch, CUSTOMIZATION_ATOMIC).reduce(
    (doc, { path, value }) => (value === null ? withoutValueAt(doc, path) : withValueAt(doc, path, value)),
    current,
  );
}

const URL_PATTERN = /^https?:\/\/[^\s]+$/;

const base = '/orgs/:orgId/sites/:siteId';

function customizationAnswer(c: NonNullable<EmuSite['customization']>) {
  return {
    ...c.document,
    ...(c.updatedAt ? { updatedAt: c.updatedAt } : {}),
  };
}

/** Today's API: a site's customization, agent settings and publishing authentication. */
export function registerSiteFace(deps: RouteDeps): void {
  if (deps.flavor !== 'current') return;
  registerCustomization(deps);
  registerAgentSettings(deps);
  registerPublishingAuth(deps);
}

function registerCustomization(deps: RouteDeps): void {
  const { router } = deps;
  router.on('GET', `${base}/customization`, ({ params }) => {
    const { site } = siteOf(deps, params);
    return { status: 200, body: customizationAnswer(customizationOf(site)) };
  });
  router.on('PUT', `${base}/customization`, ({ params, body }) => {
    const { site } = siteOf(deps, params);
    const document = checkCustomization(body);
    site.customization = { document, updatedAt: now() };
    return { status: 200, body: customizationAnswer(site.customization) };
  });

  // A site space's overrides: its GET answers the site's customization with them set; PATCH sets
  // keys (null removes an override); DELETE removes them all.
  const space = `${base}/site-spaces/:siteSpaceId/customization`;
  router.on('GET', space, ({ params }) => {
    const { site } = siteOf(deps, params);
    const ss = findById(site.siteSpaces, params.siteSpaceId!, 'site space');
    const c = customizationOf(site);
    const document = mergeSparse(c.document, ss.customization ?? {}, CUSTOMIZATION_ATOMIC);
    return { status: 200, body: customizationAnswer({ document, updatedAt: c.updatedAt }) };
  });
  router.on('PATCH', space, ({ params, body }) => {
    const { site } = siteOf(deps, params);
    const ss = findById(site.siteSpaces, params.siteSpaceId!, 'site space');
    const overrides = checkOverrides(body);
    const next = patchOverrides(ss.customization ?? {}, overrides);
    ss.customization = JSON.parse(JSON.stringify(next)) as Record<string, unknown>;
    const c = customizationOf(site);
    const document = mergeSparse(c.document, ss.customization, CUSTOMIZATION_ATOMIC);
    return { status: 200, body: customizationAnswer({ document, updatedAt: now() }) };
  });
  router.on('DELETE', space, ({ params }) => {
    const { site } = siteOf(deps, params);
    const ss = findById(site.siteSpaces, params.siteSpaceId!, 'site space');
    if (!ss.customization) return { status: 204 };
    delete ss.customization;
    return { status: 205 };
  });
}

function registerAgentSettings(deps: RouteDeps): void {
  const { router } = deps;
  const agentAnswer = (site: EmuSite, orgId: string) => {
    const a = agentSettingsOf(site);
    return {
      object: 'site-agent-settings',
      ...a.settings,
      updatedAt: a.updatedAt,
      urls: { location: `/v1/orgs/${orgId}/sites/${site.id}/agent-settings` },
    };
  };
  router.on('GET', `${base}/agent-settings`, ({ params }) => {
    const { org, site } = siteOf(deps, params);
    return { status: 200, body: agentAnswer(site, org.id) };
  });
  router.on('PUT', `${base}/agent-settings`, ({ params, body }) => {
    const { org, site } = siteOf(deps, params);
    const settings = checkAgentSettings(body);
    site.agentSettings = { settings, updatedAt: now() };
    return { status: 200, body: agentAnswer(site, org.id) };
  });
}

function registerPublishingAuth(deps: RouteDeps): void {
  const { router } = deps;
  const authAnswer = (a: EmuPublishingAuth) => ({
    object: 'publishing-auth',
    backend: a.backend,
    privateKey: a.privateKey,
    ...(a.fallbackURL !== null ? { fallbackURL: a.fallbackURL } : {}),
    ...(a.logoutURL !== null ? { logoutURL: a.logoutURL } : {}),
  });
  router.on('GET', `${base}/publishing/auth`, ({ params }) => {
    const { site } = siteOf(deps, params);
    return { status: 200, body: authAnswer(authOf(site)) };
  });
  router.on('PATCH', `${base}/publishing/auth`, ({ params, body }) => {
    const { site } = siteOf(deps, params);
    const b = asBody(body, true);
    const backend = optEnum(b, 'backend', ['custom', 'integration'] as const, { required: true })!;
    const fallbackURL = optString(b, 'fallbackURL', { nullable: true, max: 2048, pattern: URL_PATTERN });
    const logoutURL = optString(b, 'logoutURL', { nullable: true, max: 2048, pattern: URL_PATTERN });
    const auth = authOf(site);
    auth.backend = backend;
    if (fallbackURL !== undefined) auth.fallbackURL = fallbackURL;
    if (logoutURL !== undefined) auth.logoutURL = logoutURL;
    return { status: 200, body: authAnswer(auth) };
  });
  router.on('POST', `${base}/publishing/auth/regenerate`, ({ params }) => {
    const { site } = siteOf(deps, params);
    const auth = authOf(site);
    auth.privateKey = newKey();
    return { status: 200, body: authAnswer(auth) };
  });
}
