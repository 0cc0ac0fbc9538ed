import type { ApiCapabilities } from '../model/capabilities.js';
import type { ApiFlavor } from '../model/kinds.js';

/** Deletes answer 204 or 205 (the real service answers either); member removal may answer 202. */
const DELETE_ANSWERS = [202, 204, 205] as const;

/** api.md, as the emulator serves it. */
const SEED: ApiCapabilities = {
  ordering: 'move',
  sectionJoinsGroup: 'group-endpoint',
  flavor: 'seed',
  agentsContext: true,
  publish: false,
  jsonSchemaId: true,
  deleteAnswers: DELETE_ANSWERS,
  auditLog: false,
  invites: false,
  otherwise: '--api-flavor current',
};

/** Today's service (api.gitbook.com), where it differs from api.md (docs/compatibility.md). */
const CURRENT: ApiCapabilities = {
  ordering: 'sort-structure',
  sectionJoinsGroup: 'section-field',
  flavor: 'current',
  agentsContext: false,
  publish: true,
  jsonSchemaId: false,
  deleteAnswers: DELETE_ANSWERS,
  auditLog: true,
  invites: true,
  otherwise: '--api-flavor seed',
};

/** The one place a flavor name turns into capabilities. */
export function capabilitiesOf(flavor: ApiFlavor): ApiCapabilities {
  return flavor === 'current' ? CURRENT : SEED;
}
