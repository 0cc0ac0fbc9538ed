import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { AGENT_SETTINGS_DEFAULTS } from '../kinds/site-agent-settings.js';
import { CUSTOMIZATION_ATOMIC, CUSTOMIZATION_DEFAULTS } from '../kinds/site-customization.js';
import { mergeSparse } from '../kinds/sparse.js';
import type { EmuSite } from './state.js';

/**
 * A seed site's face (today's API): `customization` and `agentSettings` give some keys, set over
 * the defaults of a new site; `visitorAuth` gives the visitor authentication (`privateKey` made
 * when not given).
 */
const Doc = z.record(z.string(), z.unknown());
const Face = z.looseObject({
  customization: Doc.optional(),
  agentSettings: Doc.optional(),
  visitorAuth: z
    .strictObject({
      backend: z.enum(['custom', 'integration']).default('custom'),
      privateKey: z.string().min(1).optional(),
      fallbackURL: z.string().nullable().default(null),
      logoutURL: z.string().nullable().default(null),
    })
    .optional(),
});

const CREATED = '2024-01-01T00:00:00.000Z';

export function siteFaceFromSeed(site: unknown): Partial<EmuSite> {
  const face = Face.parse(site);
  const out: Partial<EmuSite> = {};
  if (face.customization)
    out.customization = {
      document: mergeSparse(
        structuredClone(CUSTOMIZATION_DEFAULTS),
        face.customization,
        CUSTOMIZATION_ATOMIC,
      ),
      updatedAt: CREATED,
    };
  if (face.agentSettings)
    out.agentSettings = {
      settings: mergeSparse(
        structuredClone(AGENT_SETTINGS_DEFAULTS),
        face.agentSettings,
        new Set(['editing.customInstructions']),
      ),
      updatedAt: CREATED,
    };
  if (face.visitorAuth)
    out.publishingAuth = {
      ...face.visitorAuth,
      privateKey: face.visitorAuth.privateKey ?? randomBytes(32).toString('hex'),
    };
  return out;
}
