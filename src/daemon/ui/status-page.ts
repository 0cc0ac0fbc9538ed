import type { Change } from '../../reconcile/index.js';
import { fieldLines, resourceSummary, summaryLine } from '../../plan/format-value.js';
import { refusalLine } from '../../plan/safety.js';
import { NODE_WORD, STRUCTURE_KINDS, type StructureNode, type TreeMark } from '../../plan/structure-node.js';
import { structureTree } from '../../plan/structure-tree.js';
import type { StatusView } from './view.js';
import { controlsCard, runNotes } from './controls-card.js';
import { ago, duration, html, type Html } from './html.js';
import { STYLE } from './style.js';

export type { StatusView };

const MARK_CLASS: Record<TreeMark, string> = { '+': 'm-add', '~': 'm-mod', '-': 'm-del', '↕': 'm-mov' };
const ACTION_MARK: Record<Change['action'], TreeMark> = { create: '+', update: '~', delete: '-', move: '↕' };
const MARK_WORD: Record<TreeMark, string> = {
  '+': 'to create',
  '~': 'to update',
  '-': 'to delete',
  '↕': 'to move',
};
const GOOD = new Set(['applied', 'no-changes', 'in-sync', 'planned']);
const SOSO = new Set(['drifted', 'refused']);

const badge = (result: string | undefined): Html =>
  html`<span class="badge ${result && GOOD.has(result) ? 'ok' : result && SOSO.has(result) ? 'warn' : 'bad'}"
    >${result ?? 'none'}</span
  >`;

const short = (revision: string | undefined) => (revision ? revision.slice(0, 12) : '');

const mark = (m: TreeMark | undefined): Html =>
  m
    ? html`<span class="mark ${MARK_CLASS[m]}" title="${MARK_WORD[m]}">${m}</span>`
    : html`<span class="mark"></span>`;

function treeNode(n: StructureNode): Html {
  const fields = n.changes.flatMap((c) => [...c.fields, ...(c.note ? [`# ${c.note}`] : [])]);
  return html`<li>
    <span class="node"
      >${mark(n.mark)}<span class="label">${n.label}</span
      ><span class="kind">${NODE_WORD[n.kind]}</span>${n.states.map(
        (x) => html`<span class="kind state">${x}</span>`,
      )}</span
    >${
      fields.length > 0
        ? html`<ul class="fields">
            ${fields.map((f) => html`<li>${f}</li>`)}
          </ul>`
        : null
    }${
      n.children.length > 0
        ? html`<ul>
            ${n.children.map(treeNode)}
          </ul>`
        : null
    }
  </li>`;
}

function changeItem(c: Change): Html {
  const m = ACTION_MARK[c.action];
  const fields = [...fieldLines(c), ...(c.note ? [`# ${c.note}`] : [])];
  return html`<li>
    <span class="node"
      >${mark(m)}<span class="kind">${c.kind}</span><span class="label mono">${c.address}</span></span
    >${
      fields.length > 0
        ? html`<ul class="fields">
            ${fields.map((f) => html`<li>${f}</li>`)}
          </ul>`
        : null
    }
  </li>`;
}

function sourceCard(v: StatusView): Html {
  const s = v.status.source;
  return html`<section class="card">
    <h2>Source</h2>
    <dl>
      ${
        s['url']
          ? html`<dt>repository</dt>
              <dd class="mono">${s['url']}</dd>`
          : null
      }
      ${
        s['branch']
          ? html`<dt>branch</dt>
              <dd>${s['branch']}</dd>`
          : null
      }
      <dt>${s['type'] === 'folder' ? 'folder' : 'path'}</dt>
      <dd class="mono">${s['path'] ?? ''}</dd>
      <dt>revision</dt>
      <dd>
        ${s.revision ? html`<code title="${s.revision}">${short(s.revision)}</code>` : html`<span class="muted">not read yet</span>`}
      </dd>
      ${
        s.subject
          ? html`<dt>commit</dt>
              <dd>${s.subject}</dd>`
          : null
      }
      ${
        s.time
          ? html`<dt>committed</dt>
              <dd>${ago(s.time, v.now)} <span class="muted">(${s.time})</span></dd>`
          : null
      }
      <dt>config</dt>
      <dd>
        ${v.status.configValid === false ? html`<span class="badge bad">invalid</span> the last good config stays in effect` : v.status.configValid ? html`<span class="badge ok">valid</span>` : 'not loaded yet'}
      </dd>
    </dl>
    ${s.lastFetchError ? html`<p class="error">Could not fetch the source: ${s.lastFetchError}</p>` : null}
  </section>`;
}

function lastSyncCard(v: StatusView): Html {
  const r = v.status.lastSync;
  if (!r)
    return html`<section class="card">
      <h2>Last sync</h2>
      <p class="muted">No sync has finished yet.</p>
    </section>`;
  return html`<section class="card">
    <h2>Last sync ${badge(r.result)}</h2>
    <dl>
      <dt>when</dt>
      <dd>${ago(r.finishedAt ?? r.startedAt, v.now)}, ${r.trigger}</dd>
      ${
        r.revision
          ? html`<dt>revision</dt>
              <dd><code title="${r.revision}">${short(r.revision)}</code></dd>`
          : null
      }
      ${
        r.summary
          ? html`<dt>plan</dt>
              <dd>${summaryLine(r.summary)}</dd>`
          : null
      }
      ${
        r.applied !== undefined
          ? html`<dt>applied</dt>
              <dd>${r.applied} changes applied, ${r.failedChanges ?? 0} failed</dd>`
          : null
      }
    </dl>
    ${r.message && r.result !== 'planned' ? html`<p class="error">${r.message}</p>` : null}${runNotes({
      ...(r.result === 'planned' && r.message ? { note: r.message } : {}),
      ...(r.verify ? { verify: r.verify } : {}),
    })}${
      r.issues && r.issues.length > 0
        ? html`<ul class="error">
            ${r.issues.map(
              (i) =>
                html`<li>
                  <code>${i.file}${i.line ? `:${i.line}${i.column ? `:${i.column}` : ''}` : ''}</code>
                  ${i.path ? html`<code>${i.path}</code>` : null} ${i.message}
                </li>`,
            )}
          </ul>`
        : null
    }
  </section>`;
}

function lastDriftCard(v: StatusView): Html {
  const d = v.status.lastDrift;
  if (!d)
    return html`<section class="card">
      <h2>Last drift check</h2>
      <p class="muted">No drift check has run yet.</p>
    </section>`;
  const result = d.error ? 'error' : d.drifted ? 'drifted' : 'in-sync';
  return html`<section class="card">
    <h2>Last drift check ${badge(result)}</h2>
    <dl>
      <dt>when</dt>
      <dd>${ago(d.at, v.now)}</dd>
      ${
        d.error
          ? null
          : html`<dt>found</dt>
              <dd>
                ${d.drifted ? `${d.changes} change(s) needed: ${summaryLine(d.summary)}` : 'live state matches the configuration'}
              </dd>`
      }
      ${
        d.drifted
          ? html`<dt>corrected</dt>
              <dd>${d.corrected ? 'yes' : 'no'}${d.notified ? ', notified' : ''}</dd>`
          : null
      }
      ${
        d.drifted && d.changedBy
          ? html`<dt>changed by</dt>
              <dd>${d.changedBy}</dd>`
          : null
      }
    </dl>
    ${d.error ? html`<p class="error">The drift check failed: ${d.error}</p>` : null}
  </section>`;
}

function organizationCards(v: StatusView): Html[] {
  const p = v.pending;
  if (!p)
    return [
      html`<section class="card">
        <h2>Pending changes</h2>
        <p class="muted">No plan yet.</p>
      </section>`,
    ];
  const pending = p.plan.changes.filter((c) => !p.applied.has(c.id));
  const trees = structureTree(p.plan.organizations, p.live, p.plan.changes, {
    applied: p.applied,
    arrange: 'after',
  });
  return p.plan.organizations.map((org, i) => {
    const mine = pending.filter((c) => c.address.startsWith(`${org}/`));
    // People count resources: a creation and its "set after creation" update are one.
    const counts = resourceSummary(mine);
    const errors = p.plan.errors.filter((e) => e.organization === org || e.organization === '*');
    const warnings = (p.plan.warnings ?? []).filter((w) => w.organization === org);
    const tree = trees[i]!;
    const others = mine.filter((c) => !STRUCTURE_KINDS.has(c.kind));
    return html`<section class="card">
      <h2>Organization <code>${org}</code></h2>
      <p>
        ${mine.length === 0 ? html`<span class="badge ok">nothing pending</span> live state matches the configuration` : html`<span class="badge warn">pending</span> ${summaryLine(counts)}`}
        <span class="muted"
          >(planned
          ${ago(p.at, v.now)}${p.revision ? html` at <code>${short(p.revision)}</code>` : null})</span
        >
      </p>
      ${errors.map((e) => html`<p class="error">Cannot plan: ${e.message}</p>`)}
      ${p.plan.refusals
        .filter((r) => r.organization === org)
        .map((r) => html`<p class="error">This plan will be refused: ${refusalLine(r)}</p>`)}
      ${warnings.map((w) => html`<p class="muted">Note: ${w.message}</p>`)}
      <h3>Site structure</h3>
      ${
        tree.sites.length === 0
          ? html`<p class="muted">No sites.</p>`
          : html`<ul class="tree">
              ${tree.sites.map(treeNode)}
            </ul>`
      }
      ${
        tree.unplaced.length > 0
          ? html`<ul class="tree">
              ${tree.unplaced.filter((c) => !p.applied.has(c.id)).map(changeItem)}
            </ul>`
          : null
      }
      ${
        others.length > 0
          ? html`<h3>Other pending changes</h3>
              <ul class="tree">
                ${others.map(changeItem)}
              </ul>`
          : null
      }
    </section>`;
  });
}

function runsCard(v: StatusView): Html {
  if (v.runs.length === 0)
    return html`<section class="card">
      <h2>Last runs</h2>
      <p class="muted">No runs yet.</p>
    </section>`;
  return html`<section class="card">
    <h2>Last runs</h2>
    <div class="table">
      <table class="runs">
        <thead>
          <tr>
            <th>when</th>
            <th>trigger</th>
            <th>revision</th>
            <th>result</th>
            <th>changes</th>
            <th>duration</th>
          </tr>
        </thead>
        <tbody>
          ${v.runs.map(
            (r) =>
              html`<tr>
                <td title="${r.startedAt}">${ago(r.finishedAt, v.now)}</td>
                <td>${r.trigger}</td>
                <td data-label="revision">
                  ${r.revision ? html`<code title="${r.revision}">${short(r.revision).slice(0, 8)}</code>` : ''}
                </td>
                <td>${badge(r.result)}</td>
                <td class="changes">
                  ${
                    r.counts.planned === 0
                      ? html`<span class="muted">none</span>`
                      : html`<details>
                          <summary>
                            ${r.counts.planned} ${r.counts.planned === 1 ? 'change' : 'changes'}
                            planned${r.type === 'sync' && r.counts.applied + r.counts.failed > 0 ? `, ${r.counts.applied} applied, ${r.counts.failed} failed` : ''}
                          </summary>
                          <ul class="tree">
                            ${r.changes.map(
                              (c) =>
                                html`<li>
                                  <span class="node"
                                    >${mark(ACTION_MARK[c.action])}<span class="kind">${c.kind}</span
                                    ><span class="mono">${c.address}</span
                                    >${c.status ? html`<span class="badge ${c.status === 'applied' ? 'ok' : 'bad'}">${c.status}</span>` : null}</span
                                  >${c.message ? html`<div class="error">${c.message}</div>` : null}
                                </li>`,
                            )}${r.changesOmitted ? html`<li class="muted">and ${r.changesOmitted} more</li>` : null}
                          </ul>
                        </details>`
                  }
                  ${r.errors.map((e) => html`<div class="error">${e}</div>`)} ${runNotes(r)}
                </td>
                <td data-label="took">${duration(r.durationMs)}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>
  </section>`;
}

/** The read-only status page: what is deployed, what is pending, what the last runs did. */
export function renderStatusPage(v: StatusView): string {
  const s = v.status;
  const page = html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta http-equiv="refresh" content="${v.refreshSeconds}" />
        <title>docsync status</title>
        <style>
          ${{ __html: STYLE }}
        </style>
      </head>
      <body>
        <main>
          <header>
            <h1>docsync</h1>
            <span class="badge">${s.mode} mode</span
            ><span class="badge ${v.ready ? 'ok' : 'warn'}">${v.ready ? s.phase : 'starting'}</span>
            <span class="muted"
              >refreshes every ${v.refreshSeconds} s &middot; <a href="/status">/status</a> &middot;
              <a href="/api/runs">/api/runs</a> &middot; <a href="/metrics">/metrics</a></span
            >
          </header>
          <div class="grid">${sourceCard(v)}${lastSyncCard(v)}${lastDriftCard(v)}${controlsCard(v)}</div>
          <div style="height:12px"></div>
          ${organizationCards(v)} ${runsCard(v)}
          <footer>Rendered ${v.now.toISOString()}.</footer>
        </main>
      </body>
    </html> `;
  return page.__html;
}
