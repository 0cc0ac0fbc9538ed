import type { Policy } from '../model/desired.js';
import type {
  DesiredLists,
  DesiredObjects,
  DesiredTree,
  LiveLists,
  LiveObjects,
  LiveTree,
} from '../kinds/registry.js';

/**
 * Desired state: what the YAML says, normalized. A field that is `undefined` is not managed
 * (the config omitted it); `null` means "clear it" where the API allows clearing.
 * A list that is `undefined` means the whole kind is unmanaged in that scope.
 */
export type DesiredState = {
  organizations: DesiredOrganization[];
  /**
   * `--target` patterns: the plan holds only the changes of matching resources and what they
   * depend on (a partial plan). Kept here so that a saved plan applies with the same targets.
   */
  targets?: string[];
};

/** The lists and objects of the kinds (src/kinds/registry.ts) come from their modules. */
export type DesiredOrganization = DesiredLists &
  DesiredObjects &
  DesiredTree & {
    id: string;
    policy: Policy;
    /** `suspended: true`: the daemon applies nothing to it (drift is still reported). */
    suspended?: boolean;
  };

/**
 * Live state: what the API says, normalized into the same vocabulary as the desired state.
 * Every optional API field is present here as `null` when unset, so the diff compares like with
 * like. Lists keep the API's display order. Secrets (share-link URLs) are never part of it.
 * A list that is `undefined` was not read (its kind is not managed by the config).
 */
export type LiveState = {
  organizations: LiveOrganization[];
};

/** The lists and objects of the kinds (src/kinds/registry.ts) come from their modules. */
export type LiveOrganization = LiveLists &
  LiveObjects &
  LiveTree & {
    id: string;
    /** Why this organization's live state could not be read (its plan is an error; others go on). */
    readError?: string;
    /** The stable code of that error and the endpoint that failed (`GET /orgs/{org}/teams`), for logs. */
    readFailure?: { code: string; endpoint?: string };
    /** The user the token belongs to (never removed). */
    self?: string | null;
    /** Lists read for export's notes only, by kind key: what the API answers but docsync does not manage. */
    readOnly?: Record<string, unknown[]>;
  };
