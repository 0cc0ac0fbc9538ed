import { describe, expect, it } from 'vitest';
import { SET_AFTER_CREATION } from '../../model/index.js';
import type { LiveState } from '../../reconcile/index.js';
import { buildPlan } from '../../plan/build.js';
import type { RunRecord } from '../runs/run-record.js';
import { renderStatusPage, type StatusView } from './status-page.js';

const EVIL = '<script>alert(1)</script>';
const ATTR = '"><img src=x onerror=alert(2)>';

function view(): StatusView {
  const site = `org_x/sites/${EVIL}`;
  const live: LiveState = {
    organizations: [
      {
        id: 'org_x',
        sites: [
          {
            id: 'site_1',
            title: EVIL,
            visibility: 'public',
            basename: null,
            agentsContext: null,
            adaptiveContent: null,
            proxy: null,
            sectionGroups: [],
            sections: [
              {
                id: 'sec_1',
                path: 'guides',
                title: 'Guides',
                icon: null,
                description: null,
                condition: null,
                default: true,
                draft: false,
                localizedTitle: {},
                localizedDescription: {},
                group: null,
                spaces: [
                  {
                    id: 'ss_1',
                    space: 'space_1',
                    path: 'v1',
                    condition: null,
                    default: true,
                    draft: false,
                    hidden: false,
                    pageId: null,
                  },
                ],
              },
            ],
          },
        ],
      },
    ],
  };
  const plan = buildPlan([
    {
      organization: 'org_x',
      drafts: [
        {
          key: 'u1',
          action: 'update',
          kind: 'site-space',
          address: `${site}/sections/guides/spaces/space_1`,
          before: { path: 'v1' },
          after: { path: ATTR },
          deps: [],
          op: {
            type: 'update-site-space',
            org: 'org_x',
            site: { id: 'site_1' },
            siteSpace: { id: 'ss_1' },
            patch: {},
          },
        },
        {
          key: 'c1',
          action: 'create',
          kind: 'team',
          address: 'org_x/teams/Writers',
          before: null,
          after: { title: 'Writers' },
          deps: [],
          op: { type: 'create-team', org: 'org_x', title: 'Writers' },
        },
      ],
      problems: [],
      unmanaged: [],
      policy: { prune: false, maxDeletes: 10 },
      managedLiveCount: 1,
    } as never,
  ]);
  return {
    status: {
      phase: 'idle',
      mode: 'plan',
      api: { flavor: 'seed' },
      source: {
        type: 'git',
        url: 'https://example.com/r.git',
        branch: 'main',
        path: 'cfg',
        revision: 'a'.repeat(40),
        subject: `fix ${EVIL}`,
      },
      configValid: true,
      lastSync: {
        runId: 'r1',
        trigger: 'startup',
        startedAt: '2026-01-01T00:00:00.000Z',
        finishedAt: '2026-01-01T00:00:02.000Z',
        result: 'failed',
        message: `the API said ${ATTR}`,
      },
      lastDrift: null,
    },
    ready: true,
    pending: { at: '2026-01-01T00:00:01.000Z', revision: 'a'.repeat(40), plan, live, applied: new Set() },
    runs: [],
    now: new Date('2026-01-01T00:01:00.000Z'),
    refreshSeconds: 10,
  };
}

describe('status page', () => {
  const page = renderStatusPage(view());

  it('escapes everything it shows: no markup from config or API text gets through', () => {
    expect(page).not.toMatch(/<script/i);
    expect(page).not.toMatch(/<img/i);
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).toContain('&quot;&gt;&lt;img src=x onerror=alert(2)&gt;');
  });

  it('draws the pending change on the site structure, with its mark and field, and lists other changes', () => {
    expect(page).toMatch(/<span class="mark m-mod"[^>]*>~<\/span><span class="label">space_1 \/&quot;&gt;/);
    expect(page).toContain('path: &quot;v1&quot; → &quot;\\&quot;&gt;&lt;img');
    expect(page).toContain('Other pending changes');
    expect(page).toContain('org_x/teams/Writers');
    expect(page).toContain('1 to create, 1 to update, 0 to delete, 0 to move');
  });

  it('refreshes itself and fits a phone', () => {
    expect(page).toMatch(/<meta http-equiv="refresh" content="10"\s*\/?>/);
    expect(page).toContain('name="viewport"');
    expect(page).toMatch(/@media \(max-width:600px\)/);
    expect(page).not.toMatch(/(src|href)="https?:/);
  });

  it('counts a creation and its follow-up update as one resource to create', () => {
    const v = view();
    const create = v.pending!.plan.changes.find((c) => c.action === 'create')!;
    const followUp = {
      ...create,
      id: 'c9',
      action: 'update' as const,
      before: null,
      after: { title: 'Writers' },
      dependsOn: [create.id],
      note: SET_AFTER_CREATION,
    };
    v.pending!.plan = { ...v.pending!.plan, changes: [...v.pending!.plan.changes, followUp] };
    expect(renderStatusPage(v)).toContain('1 to create, 1 to update, 0 to delete, 0 to move');
  });
  it('shows the source (repository, branch, path, revision, commit subject and time) and a failed drift check in words', () => {
    const v = view();
    v.status.source = { ...v.status.source, time: '2025-12-31T23:00:00.000Z' };
    v.status.lastDrift = {
      at: '2026-01-01T00:00:30.000Z',
      drifted: false,
      changes: 0,
      checksum: '',
      summary: { create: 0, update: 0, delete: 0, move: 0 },
      corrected: false,
      notified: true,
      error: 'GET /orgs/org_x/sites answered 503 Service Unavailable',
    };
    const text = renderStatusPage(v)
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ');
    expect(text).toContain('repository https://example.com/r.git');
    expect(text).toContain('branch main');
    expect(text).toContain('path cfg');
    expect(text).toContain(`revision ${'a'.repeat(12)}`);
    expect(text).toContain('commit fix &lt;script&gt;');
    expect(text).toContain('committed 61 min ago (2025-12-31T23:00:00.000Z)');
    // A drift check that could not read is an error, never "in sync".
    expect(text).toContain('Last drift check error');
    expect(text).toContain('The drift check failed: GET /orgs/org_x/sites answered 503 Service Unavailable');
    expect(text).not.toContain('live state matches the configuration');
    expect(text).toContain('the API said &quot;&gt;&lt;img'); // the last sync's failure, in words
  });

  it('lists the last runs: trigger, revision, result, counts, duration and the applied changes', () => {
    const v = view();
    const run: RunRecord = {
      seq: 7,
      id: 'run-7',
      type: 'sync',
      trigger: 'webhook',
      startedAt: '2026-01-01T00:00:00.000Z',
      finishedAt: '2026-01-01T00:00:04.500Z',
      durationMs: 4_500,
      revision: 'b'.repeat(40),
      result: 'applied',
      counts: { planned: 2, applied: 1, failed: 1, skipped: 0 },
      changes: [
        {
          id: 'c1',
          action: 'create',
          kind: 'team',
          address: 'org_x/teams/Writers',
          fields: [],
          status: 'applied',
        },
        {
          id: 'c2',
          action: 'delete',
          kind: 'share-link',
          address: 'org_x/sites/Docs/share-links/old',
          fields: [],
          status: 'failed',
          message: 'API answered 409',
        },
      ],
      errors: [],
    };
    v.runs = [run];
    const rows = renderStatusPage(v).split('<tbody>')[1]!.split('</tbody>')[0]!;
    const text = rows.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
    expect(text).toContain('webhook');
    expect(text).toContain('b'.repeat(8));
    expect(text).toContain('applied');
    expect(text).toContain('2 changes planned, 1 applied, 1 failed');
    expect(text).toContain('4.5 s');
    expect(text).toMatch(/\+ team org_x\/teams\/Writers applied/);
    expect(text).toMatch(/- share-link org_x\/sites\/Docs\/share-links\/old failed API answered 409/);
  });
});
