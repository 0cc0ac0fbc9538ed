import { TranslationSettings } from '../api/schema.js';
import type { Ref } from '../model/change.js';
import { deleteCall, idOutput, type KindModule } from './types.js';

export type TranslationOp =
  | { type: 'create-translation'; org: string; title: string }
  | { type: 'update-translation'; org: string; translation: Ref; title: string }
  | { type: 'delete-translation'; org: string; translation: Ref };

const LIST = '/orgs/{org}/translations';
const ROUTE = `${LIST}/{translation}`;

/** api.md's translation settings, by title (or pinned id). */
export const translationKind: KindModule<TranslationOp> = {
  kind: 'translation',
  ops: {
    'create-translation': {
      call: (op) => ({
        method: 'POST',
        route: LIST,
        params: { org: op.org },
        body: { title: op.title },
        expect: [201],
        answer: TranslationSettings,
        create: true,
      }),
      output: idOutput,
      adopt: {
        list: (op) => ({ route: LIST, params: { org: op.org }, item: TranslationSettings }),
        find: (t: { title: string }, op) => t.title === op.title,
        output: idOutput,
      },
    },
    'update-translation': {
      call: (op, r) => ({
        method: 'PUT',
        route: ROUTE,
        params: { org: op.org, translation: r.ref(op.translation) },
        body: { title: op.title },
        expect: [200],
        answer: TranslationSettings,
      }),
    },
    'delete-translation': {
      call: (op, r, caps) => deleteCall(ROUTE, { org: op.org, translation: r.ref(op.translation) }, caps),
    },
  },
};
