import { registerAudit } from './audit.js';
import { registerDeclared } from './declared.js';
import { registerAdmin } from './routes/admin.js';
import type { RouteDeps } from './routes/context.js';
import { registerCustomFields } from './routes/custom-fields.js';
import { registerInvites } from './routes/invites.js';
import { registerOrganizations } from './routes/organizations.js';
import { registerPermissions } from './routes/permissions.js';
import { registerRedirects } from './routes/redirects.js';
import { registerSections } from './routes/sections.js';
import { registerSiteFace } from './routes/site-face.js';
import { registerSiteSpaces } from './routes/site-spaces.js';
import { registerSites } from './routes/sites.js';
import { registerStructure } from './routes/structure.js';
import { registerTeams } from './routes/teams.js';
import { registerTranslations } from './routes/translations.js';

/**
 * Every route group the flavor serves, in the order the router tries them. The plain kinds'
 * routes come from the kind registry (registerDeclared, decision 20).
 */
export function registerRouteGroups(deps: RouteDeps): void {
  const flavor = deps.flavor;
  registerOrganizations(deps);
  registerTeams(deps);
  if (flavor === 'seed') registerCustomFields(deps);
  registerSites(deps);
  registerSiteFace(deps);
  registerSections(deps);
  registerSiteSpaces(deps);
  registerStructure(deps);
  registerDeclared(deps);
  registerAdmin(deps);
  registerTranslations(deps);
  if (flavor === 'current') registerAudit(deps);
  if (flavor === 'current') registerInvites(deps);
  if (flavor === 'current') registerPermissions(deps);
  if (flavor === 'current') registerRedirects(deps);
}
