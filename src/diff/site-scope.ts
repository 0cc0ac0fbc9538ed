import type { Ref } from '../model/index.js';

/** One site being diffed: how to reference it, and the site update being assembled. */
export type SiteScope = {
  addr: string;
  ref: Ref;
  createKey?: string;
  patch: {
    before: Record<string, unknown>;
    after: Record<string, unknown>;
    body: Record<string, unknown>;
    deps: (string | undefined)[];
  };
};
