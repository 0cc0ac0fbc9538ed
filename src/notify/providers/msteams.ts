import { cardText } from '../../plan/markdown-escape.js';
import { summaryLine } from '../../plan/format-value.js';
import { what, type Renderer } from '../provider.js';

/**
 * Microsoft Teams: a message holding one Adaptive Card (what Teams' Workflows webhooks and the
 * older incoming webhooks both take), every text through `cardText` (the markdown escaper, which
 * redacts first): a title in the event's colour, the message, and the facts.
 */
export const renderMsTeams: Renderer = (provider, event) => {
  const facts = [
    { title: 'Organization', value: cardText(event.org) },
    { title: 'Event', value: cardText(event.type) },
    ...(event.commit ? [{ title: 'Commit', value: cardText(event.commit.slice(0, 12)) }] : []),
    ...(event.details.counts ? [{ title: 'Plan', value: cardText(summaryLine(event.details.counts)) }] : []),
  ];
  const color = event.severity === 'error' ? 'attention' : event.type === 'drift' ? 'warning' : 'good';
  return {
    method: 'POST',
    url: provider.address,
    what: what(provider),
    body: {
      type: 'message',
      attachments: [
        {
          contentType: 'application/vnd.microsoft.card.adaptive',
          contentUrl: null,
          content: {
            $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
            type: 'AdaptiveCard',
            version: '1.4',
            body: [
              {
                type: 'TextBlock',
                text: cardText(event.summary),
                weight: 'bolder',
                size: 'medium',
                color,
                wrap: true,
              },
              ...(event.message ? [{ type: 'TextBlock', text: cardText(event.message), wrap: true }] : []),
              { type: 'FactSet', facts },
            ],
          },
        },
      ],
    },
  };
};
