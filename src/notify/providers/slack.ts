import { slackText } from '../../plan/markdown-escape.js';
import { redactDeep } from '../../secrets/registry.js';
import { what, type Renderer } from '../provider.js';

/**
 * Slack (an incoming webhook, or anything that takes its JSON): `text` in mrkdwn, every piece of
 * it through `slackText` (so no `<!channel>`, no `<url|link>` and no secret), then the structured
 * fields that the `--notify-url` body has always carried (`organizations`, `summary`, `checksum`,
 * `changes`, `error`), raw but redacted.
 */
export const renderSlack: Renderer = (provider, event) => {
  const text = [
    `${slackText(event.summary)} (${slackText(event.org)})`,
    ...(event.message ? [slackText(event.message)] : []),
  ].join('\n');
  const d = event.details;
  return {
    method: 'POST',
    url: provider.address,
    what: what(provider),
    body: redactDeep({
      text,
      event: event.type,
      severity: event.severity,
      organizations: [event.org],
      ...(event.commit ? { commit: event.commit } : {}),
      ...(d.counts ? { summary: d.counts } : {}),
      ...(d.checksum ? { checksum: d.checksum } : {}),
      ...(d.changes ? { changes: d.changes } : {}),
      ...(d.error !== undefined ? { error: d.error } : {}),
    }),
  };
};
