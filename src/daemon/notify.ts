import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { sendOutbound, type OutboundPolicy } from '../api/outbound.js';
import { renderJson, renderMarkdown, type Plan } from '../plan/index.js';
import { resourceSummary, summaryLine } from '../plan/format-value.js';
import { slackText } from '../plan/markdown-escape.js';
import { redact, redactDeep } from '../secrets/registry.js';

/** Write the drift report atomically: markdown, or JSON when the file name ends in .json. */
export async function writeDriftReport(file: string, plan: Plan, title: string): Promise<void> {
  const text = file.endsWith('.json') ? renderJson(plan) : renderMarkdown(plan, { title });
  await mkdir(dirname(file), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}`;
  await writeFile(tmp, redact(text));
  await rename(tmp, file);
}

/** Post a Slack-compatible alert that a drift check could not read live state. */
export async function notifyDriftError(url: string, message: string): Promise<void> {
  await post(
    url,
    redactDeep({
      text: `docsync drift check failed: live state could not be read, drift is unknown (${slackText(message)})`,
      error: message,
    }),
  );
}

/** Tests shorten the policy's deadline and backoff. */
export const notifyPolicy: OutboundPolicy = { timeoutMs: 20_000 };

/** The webhook URL is a secret (Slack's carry their key in the path): errors never name it. */
async function post(url: string, payload: unknown): Promise<void> {
  await sendOutbound(
    { method: 'POST', url, what: 'notify webhook', body: payload },
    { ...notifyPolicy, secrets: [url] },
  );
}

/** Post a Slack-compatible JSON body (`text`, plus structured fields) to a webhook URL. */
export async function notify(url: string, plan: Plan, title: string): Promise<void> {
  // Slack mrkdwn: data is escaped (`<!channel>`, `<url|text>` links); the structured fields stay raw.
  const text = `${slackText(title)}: ${summaryLine(resourceSummary(plan.changes))} (${plan.organizations.map(slackText).join(', ')})`;
  await post(
    url,
    redactDeep({
      text,
      organizations: plan.organizations,
      summary: plan.summary,
      checksum: plan.checksum,
      changes: plan.changes.slice(0, 50).map((c) => ({ action: c.action, kind: c.kind, address: c.address })),
    }),
  );
}
