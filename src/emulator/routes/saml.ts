import { notFound } from '../errors.js';
import { paginate } from '../paginate.js';
import type { EmuOrganization } from '../state.js';
import { findById, findOrg, newId, now } from '../store.js';
import { asBody, optEnum, optString, reqString, roles } from '../validate.js';
import { flavoredLocation, type RouteDeps } from './context.js';

const saml = (org: EmuOrganization) => (org.saml ??= []);

type Provider = NonNullable<EmuOrganization['saml']>[number];

function samlShape(deps: RouteDeps, org: EmuOrganization, p: Provider) {
  const team = p.defaultTeam ? org.teams.find((t) => t.id === p.defaultTeam) : undefined;
  return {
    object: 'saml-provider',
    id: p.id,
    label: p.label,
    // The official document requires a URI even before one is configured.
    ssoURL: p.ssoURL ?? (deps.flavor === 'current' ? 'about:blank' : ''),
    entityID: p.entityID ?? '',
    certificate: p.certificate ?? '',
    ...(team ? { defaultTeam: deps.shapes.team(team) } : {}),
    defaultRole: p.defaultRole,
    createdAt: p.createdAt,
    status: 'active',
    service: {
      acsURL: `https://app.emulator.local/saml/${p.id}/acs`,
      startURL: `https://app.emulator.local/saml/${p.id}`,
      entityID: `emulator:${p.id}`,
    },
    urls: { location: flavoredLocation(deps, `/orgs/${org.id}/saml/${p.id}`) },
  };
}

function samlFields(org: EmuOrganization, b: Record<string, unknown>, create: boolean) {
  const label = create
    ? reqString(b, 'label', { min: 1, max: 30 })
    : optString(b, 'label', { min: 1, max: 30 });
  const entityID = optString(b, 'entityID', { max: 1024 });
  const certificate = optString(b, 'certificate', { max: 10000 });
  const ssoURL = optString(b, 'ssoURL', { max: 2048, pattern: /^https?:\/\/\S+$/ });
  const defaultTeam = optString(b, 'defaultTeam');
  if (defaultTeam) findById(org.teams, defaultTeam, 'team');
  const defaultRole = optEnum(b, 'defaultRole', roles, { nullable: true });
  return { label, entityID, certificate, ssoURL, defaultTeam, defaultRole };
}

/** SAML providers. */
export function registerSaml(deps: RouteDeps): void {
  const { state, router, flavor } = deps;
  const shape = (org: EmuOrganization, p: Provider) => samlShape(deps, org, p);
  router.on('GET', '/orgs/:orgId/saml', ({ params, query }) => {
    const org = findOrg(state(), params.orgId!);
    return {
      status: 200,
      body: paginate(saml(org), query, (p) => shape(org, p)),
    };
  });
  router.on('POST', '/orgs/:orgId/saml', ({ params, body }) => {
    const org = findOrg(state(), params.orgId!);
    const f = samlFields(org, asBody(body, true), true);
    const p = {
      id: newId('saml'),
      label: f.label!,
      entityID: f.entityID ?? null,
      certificate: f.certificate ?? null,
      ssoURL: f.ssoURL ?? null,
      defaultTeam: f.defaultTeam ?? null,
      defaultRole: f.defaultRole ?? null,
      createdAt: now(),
    };
    saml(org).push(p);
    return { status: 201, body: shape(org, p) };
  });
  router.on('GET', '/orgs/:orgId/saml/:id', ({ params }) => {
    const org = findOrg(state(), params.orgId!);
    return { status: 200, body: shape(org, findById(saml(org), params.id!, 'SAML provider')) };
  });
  router.on('PATCH', '/orgs/:orgId/saml/:id', ({ params, body }) => {
    const org = findOrg(state(), params.orgId!);
    const p = findById(saml(org), params.id!, 'SAML provider');
    const f = samlFields(org, asBody(body), false);
    if (f.label) p.label = f.label;
    if (f.entityID !== undefined) p.entityID = f.entityID;
    if (f.certificate !== undefined) p.certificate = f.certificate;
    if (f.ssoURL !== undefined) p.ssoURL = f.ssoURL;
    if (f.defaultTeam !== undefined) p.defaultTeam = f.defaultTeam;
    if (f.defaultRole !== undefined) p.defaultRole = f.defaultRole;
    return { status: 200, body: shape(org, p) };
  });
  router.on('DELETE', '/orgs/:orgId/saml/:id', ({ params }) => {
    const org = findOrg(state(), params.orgId!);
    const i = saml(org).findIndex((x) => x.id === params.id);
    if (i === -1) {
      if (flavor === 'current') return { status: 204 };
      throw notFound(`SAML provider ${params.id} not found`);
    }
    saml(org).splice(i, 1);
    return { status: flavor === 'current' ? 205 : 204 };
  });
}
