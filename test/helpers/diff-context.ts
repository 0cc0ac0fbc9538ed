import { capabilitiesOf } from '../../src/api/capabilities.js';
import type { DiffContext } from '../../src/diff/context.js';
import { DraftSet } from '../../src/diff/draft.js';
import { LiveTitleRefs } from '../../src/diff/title-refs.js';
import type { ApiFlavor } from '../../src/model/kinds.js';

/** An empty diff context of organization `org_t`, for tests of one kind's or one step's diff. */
export function diffContext({
  flavor = 'seed',
  prune = true,
}: { flavor?: ApiFlavor; prune?: boolean } = {}): DiffContext {
  return {
    org: 'org_t',
    drafts: new DraftSet(),
    unmanaged: [],
    problems: [],
    prune,
    pruneMembers: false,
    minAdmins: 1,
    managedLive: { count: 0 },
    dependedOn: new Map(),
    self: null,
    siteRefs: new LiveTitleRefs([]),
    teamRefs: new LiveTitleRefs([]),
    caps: capabilitiesOf(flavor),
    warnings: [],
    duplicates: [],
    brokenLinks: 'redirect',
    links: { planned: [], broken: [] },
  };
}
