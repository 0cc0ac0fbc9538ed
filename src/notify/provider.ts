import type { OutboundRequest } from '../api/outbound.js';
import type { EventFilter } from './dedup.js';
import type { NotificationEvent } from './events.js';

export const PROVIDER_TYPES = ['slack', 'msteams', 'generic-hmac', 'github'] as const;
export type ProviderType = (typeof PROVIDER_TYPES)[number];

/** A provider as the daemon uses it: its secrets read, its filter complete (src/notify/settings.ts). */
export type NotificationProvider = EventFilter & {
  name: string;
  type: ProviderType;
  /** The webhook URL (a secret for slack, msteams and generic-hmac), or `owner/repo` for github. */
  address: string;
  /** The HMAC key (generic-hmac) or the token (github). */
  secret?: string;
  /** github: the REST API's base URL (GitHub Enterprise Server), default https://api.github.com. */
  apiUrl?: string;
};

/** How a provider type turns an event into one HTTP call; undefined when it has nothing to send. */
export type Renderer = (
  provider: NotificationProvider,
  event: NotificationEvent,
) => OutboundRequest | undefined;

/** Names the call in errors and logs without its URL (webhook URLs carry their key). */
export const what = (provider: NotificationProvider) => `notification ${provider.name} (${provider.type})`;
