import { ShareLink } from '../api/schema.js';
import type { Patch, Ref } from '../model/change.js';
import { deleteCall, idOutput, type KindModule } from './types.js';

export type ShareLinkOp =
  | { type: 'create-share-link'; org: string; site: Ref; name: string }
  | { type: 'update-share-link'; org: string; site: Ref; shareLink: Ref; patch: Patch }
  | { type: 'delete-share-link'; org: string; site: Ref; shareLink: Ref };

const LIST = '/orgs/{org}/sites/{site}/share-links';
const ROUTE = `${LIST}/{link}`;

/** A share link of a site, by name (or pinned id). Its URL is a secret and never read. */
export const shareLinkKind: KindModule<ShareLinkOp> = {
  kind: 'share-link',
  ops: {
    'create-share-link': {
      call: (op, r) => ({
        method: 'POST',
        route: LIST,
        params: { org: op.org, site: r.ref(op.site) },
        body: { name: op.name },
        expect: [201],
        answer: ShareLink,
        create: true,
      }),
      output: idOutput,
      adopt: {
        list: (op, r) => ({ route: LIST, params: { org: op.org, site: r.ref(op.site) }, item: ShareLink }),
        find: (l: ShareLink, op) => l.name === op.name,
        output: idOutput,
      },
    },
    'update-share-link': {
      call: (op, r) => ({
        method: 'PATCH',
        route: ROUTE,
        params: { org: op.org, site: r.ref(op.site), link: r.ref(op.shareLink) },
        body: r.patch(op.patch),
        expect: [200],
      }),
    },
    'delete-share-link': {
      call: (op, r, caps) =>
        deleteCall(ROUTE, { org: op.org, site: r.ref(op.site), link: r.ref(op.shareLink) }, caps),
    },
  },
};
