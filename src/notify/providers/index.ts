import type { ProviderType, Renderer } from '../provider.js';
import { renderGenericHmac } from './generic-hmac.js';
import { renderGitHub } from './github.js';
import { renderMsTeams } from './msteams.js';
import { renderSlack } from './slack.js';

/** One renderer per provider type. */
export const RENDERERS: Record<ProviderType, Renderer> = {
  slack: renderSlack,
  msteams: renderMsTeams,
  'generic-hmac': renderGenericHmac,
  github: renderGitHub,
};
