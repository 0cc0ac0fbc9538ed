import type { Verification } from '../../pipeline/verify.js';
import type { StatusView } from './view.js';
import { html, type Html } from './html.js';

/**
 * Per organization: suspended or not, whether apply may run now, and its sync windows (open or
 * not, until when). Shown only when some organization has a control to show.
 */
export function controlsCard(v: StatusView): Html | null {
  const orgs = Object.entries(v.status.organizations ?? {}).filter(
    ([, s]) => s.controls && (s.controls.suspended || s.controls.syncWindows || !s.controls.applyAllowed),
  );
  if (orgs.length === 0) return null;
  return html`<section class="card">
    <h2>Suspension and sync windows</h2>
    <ul class="tree">
      ${orgs.map(([org, s]) => {
        const c = s.controls!;
        const state = c.suspended
          ? html`<span class="badge bad">suspended</span>`
          : c.applyAllowed
            ? html`<span class="badge ok">apply allowed</span>`
            : html`<span class="badge warn">apply blocked</span>`;
        return html`<li>
          <code>${org}</code> ${state}
          ${c.blockedReason ? html`<div class="muted">${c.blockedReason}</div>` : null}
          ${
            c.syncWindows
              ? html`<ul>
                  ${c.syncWindows.map(
                    (w) =>
                      html`<li>
                        <span class="badge ${w.active ? (w.kind === 'deny' ? 'bad' : 'ok') : ''}"
                          >${w.kind}${w.active ? ' open' : ''}</span
                        >
                        <code>${w.schedule}</code> for ${w.duration}
                        (${w.timeZone})${
                          w.manualSync ? ', manual sync allowed' : ''
                        }${w.active && w.until ? `, open since ${w.since ?? '?'} until ${w.until}` : ''}
                      </li>`,
                  )}
                </ul>`
              : null
          }
        </li>`;
      })}
    </ul>
  </section>`;
}

/** A run's note ("apply skipped: …") and its verification, under its changes. */
export function runNotes(r: { note?: string; verify?: Verification }): Html {
  return html`${r.note ? html`<div class="muted">${r.note}</div>` : null}${
    r.verify
      ? r.verify.converged
        ? html`<div class="muted">verified: converged</div>`
        : html`<div class="error">
            verify: not
            converged${
              r.verify.error
                ? html`, the re-read failed: ${r.verify.error}`
                : html`, ${r.verify.remaining.length} difference(s) remain:
                  ${r.verify.remaining
                    .slice(0, 10)
                    .map((x) => html`<code>${x.action} ${x.kind} ${x.address}</code> `)}`
            }
          </div>`
      : null
  }`;
}
