import type { z } from 'zod';
import { SamlProvider } from '../api/schema.js';
import type { Patch, Ref } from '../model/change.js';
import { deleteCall, idOutput, type KindModule } from './types.js';

export type SamlProviderOp =
  | { type: 'create-saml-provider'; org: string; body: Patch }
  | { type: 'update-saml-provider'; org: string; provider: Ref; patch: Patch }
  | { type: 'delete-saml-provider'; org: string; provider: Ref };

const LIST = '/orgs/{org}/saml';
const ROUTE = `${LIST}/{provider}`;

/** A SAML provider, by label (or pinned id); its certificate is compared by hash. */
export const samlProviderKind: KindModule<SamlProviderOp> = {
  kind: 'saml-provider',
  ops: {
    'create-saml-provider': {
      call: (op, r) => ({
        method: 'POST',
        route: LIST,
        params: { org: op.org },
        body: r.patch(op.body),
        expect: [201],
        answer: SamlProvider,
        create: true,
      }),
      output: idOutput,
      adopt: {
        list: (op) => ({ route: LIST, params: { org: op.org }, item: SamlProvider }),
        find: (p: z.infer<typeof SamlProvider>, op) => p.label === op.body['label'],
        output: idOutput,
      },
    },
    'update-saml-provider': {
      call: (op, r) => ({
        method: 'PATCH',
        route: ROUTE,
        params: { org: op.org, provider: r.ref(op.provider) },
        body: r.patch(op.patch),
        expect: [200],
        answer: SamlProvider,
      }),
    },
    'delete-saml-provider': {
      call: (op, r, caps) => deleteCall(ROUTE, { org: op.org, provider: r.ref(op.provider) }, caps),
    },
  },
};
