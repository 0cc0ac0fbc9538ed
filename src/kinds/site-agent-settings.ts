import { z } from 'zod';
import type { DiffContext } from '../diff/context.js';
import type { SiteScope } from '../diff/site-scope.js';
import type { ApiCapabilities } from '../model/capabilities.js';
import type { Ref } from '../model/change.js';
import type { KindExamples } from './examples.js';
import type { SiteFacet } from './value-shapes.js';
import { diffSparseFacet, exportSparse, nestedDocs, sparseRead, type SparseDoc } from './sparse.js';

/**
 * A site's agent (AI) settings (today's API: `GET`/`PUT /orgs/{org}/sites/{site}/agent-settings`),
 * managed sparsely like the customization: only the keys the config gives are compared and
 * written; the PUT sends the live settings with those keys set (decision 0037). A key of the site entry.
 */

export type SiteAgentSettingsOp = {
  type: 'set-site-agent-settings';
  org: string;
  site: Ref;
  /** The whole settings the PUT sends: the live ones with the config's keys set. */
  settings: Record<string, unknown>;
};

const ROUTE = '/orgs/{org}/sites/{site}/agent-settings';

/** The custom instructions are one document (`JSONDocument`), replaced whole. */
const ATOMIC: ReadonlySet<string> = new Set(['editing.customInstructions']);

/** A GitBook document (`JSONDocument` of the official document): the API checks its nodes. */
const JsonDocument = z
  .record(z.string(), z.unknown())
  .refine(
    (v) => v['object'] === 'document' && Array.isArray(v['nodes']),
    'must be a document ({ object: document, data: {}, nodes: [...] })',
  );

const Config = z
  .strictObject({
    scans: z
      .strictObject({
        topics: z.enum(['auto', 'never']).optional().describe('When topics are scanned for findings.'),
      })
      .optional(),
    findings: z
      .strictObject({
        changeRequests: z
          .enum(['always', 'auto-fixable', 'never'])
          .optional()
          .describe('How change requests that fix findings are made.'),
      })
      .optional(),
    editing: z
      .strictObject({
        customInstructions: JsonDocument.optional().describe(
          'Instructions for the editing agent: a GitBook document (`{ object: document, data: {}, nodes: [...] }`), replaced whole.',
        ),
      })
      .optional(),
  })
  .describe('Sparse: only the keys given are managed.');
type Config = z.infer<typeof Config>;

/** The settings of a site nobody changed, as this module knows them: export leaves out what equals them. */
export const AGENT_SETTINGS_DEFAULTS: SparseDoc = {
  scans: { topics: 'auto' },
  findings: { changeRequests: 'auto-fixable' },
  editing: { customInstructions: { object: 'document', data: {}, nodes: [] } },
};

const Answer = z.looseObject({ scans: z.unknown(), findings: z.unknown(), editing: z.unknown() });

/** The live settings without what the PUT does not take back (`object`, `updatedAt`, `updatedBy`, `urls`). */
function liveSettings(answer: z.infer<typeof Answer>): SparseDoc {
  const { object: _o, updatedAt: _u, updatedBy: _b, urls: _urls, ...settings } = answer;
  return settings;
}

function diff(ctx: DiffContext, site: SiteScope, _title: string, d: Config, l: SparseDoc | null | undefined) {
  const facet = {
    kind: 'site-agent-settings',
    key: 'agent-settings',
    atomic: ATOMIC,
    defaults: AGENT_SETTINGS_DEFAULTS,
  };
  diffSparseFacet<SiteAgentSettingsOp>(ctx, facet, site, d, l, (settings) => ({
    type: 'set-site-agent-settings',
    org: ctx.org,
    site: site.ref,
    settings,
  }));
}

const absent = (caps: ApiCapabilities) =>
  `sites[].agentSettings is not in this API (${caps.flavor}): only today's API (--api-flavor current) has a site's agent settings`;

export const siteAgentSettingsKind: SiteFacet<
  'agentSettings',
  Config,
  Config,
  SparseDoc | null,
  SiteAgentSettingsOp,
  'site-agent-settings'
> = {
  kind: 'site-agent-settings',
  key: 'agentSettings',
  absentIn: ['seed'],
  absent,
  config: Config,
  describe:
    "The site's agent (AI) settings (today's API), sparse: only the keys given are compared and written, the others stay as they are.",
  docs: {
    'sites[].agentSettings': {
      title: 'agent settings (sparse)',
      notes: [
        'Only the keys given are managed, as for `customization`: the plan shows each changed key by its path, and apply sends the live settings with those keys set.',
        '`editing.customInstructions` is one document, replaced whole.',
        'Export writes the keys that differ from the defaults of a new site.',
        'For example `agentSettings: { scans: { topics: never }, findings: { changeRequests: always } }`.',
      ],
    },
    ...nestedDocs('sites[].agentSettings', Config),
  },
  normalize: (c) => c,
  read: sparseRead(ROUTE, Answer, liveSettings),
  diff,
  export: (l, caps) => exportSparse<Config>(l, caps, AGENT_SETTINGS_DEFAULTS, ATOMIC),
  ops: {
    'set-site-agent-settings': {
      call: (op, r) => ({
        method: 'PUT',
        route: ROUTE,
        params: { org: op.org, site: r.ref(op.site) },
        body: op.settings,
        expect: [200],
      }),
    },
  },
  examples: {
    flavor: 'current',
    pairs: [
      {
        config: { scans: { topics: 'never' } },
        seed: { agentSettings: { scans: { topics: 'never' } } },
        changed: { scans: { topics: 'auto' } },
      },
    ],
  } satisfies KindExamples<Config>,
};
