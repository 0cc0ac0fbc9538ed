import { z } from 'zod';
import { kindDrafts } from '../diff/builder.js';
import { countLive, pairByIdentity, type DiffContext } from '../diff/context.js';
import { liveRef } from '../diff/draft.js';
import type { Ref } from '../model/change.js';
import { defined, duplicatesOf, pin, previously } from './fields.js';
import { absentHere, deleteCall, idOutput, type ExportContext } from './types.js';
import type { ListKind } from './shapes.js';
import type { KindExamples } from './examples.js';

/** api.md's translation settings, by title (or pinned id). Everything docsync knows about the kind. */

export type TranslationOp =
  | { type: 'create-translation'; org: string; title: string }
  | { type: 'update-translation'; org: string; translation: Ref; title: string }
  | { type: 'delete-translation'; org: string; translation: Ref };

const Config = z.strictObject({
  title: z.string().min(1).max(100).describe('Identity of the translation settings (unless id is pinned).'),
  id: pin('title'),
  previously: previously('title'),
});
type Config = z.infer<typeof Config>;

export type DesiredTranslation = { title: string; id?: string; previously?: string[] };
export type LiveTranslation = { id: string; title: string };

const Answer = z.looseObject({ id: z.string(), title: z.string() });
type Answer = z.infer<typeof Answer>;

/** Today's translation resource at the same route: a source space translated into a language. */
const TodayAnswer = z.looseObject({
  id: z.string(),
  source: z.looseObject({ space: z.string(), language: z.string() }),
  language: z.string(),
});
type Today = { id: string; sourceSpace: string; sourceLanguage: string; language: string };

/** Today's API has a different translation resource: read for export's notes, not managed. */
const ABSENT_IN = ['current'] as const;
const LIST = '/orgs/{org}/translations';
const ROUTE = '/orgs/{org}/translations/{translation}';
const address = (org: string, title: string) => `${org}/translations/${title}`;

function diff(ctx: DiffContext, desired: DesiredTranslation[], live: LiveTranslation[]): void {
  const drafts = kindDrafts<TranslationOp>(ctx, 'translation');
  countLive(ctx, 'translation', live.length);
  const { pairs, leftover } = pairByIdentity(ctx, 'translation', desired, live, (x) => x.title);
  for (const [d, l] of pairs) {
    const addr = address(ctx.org, d.title);
    if (!l)
      drafts.create({
        address: addr,
        after: { title: d.title },
        op: { type: 'create-translation', org: ctx.org, title: d.title },
      });
    else if (l.title !== d.title)
      drafts.update({
        address: addr,
        before: { title: l.title },
        after: { title: d.title },
        op: { type: 'update-translation', org: ctx.org, translation: liveRef(l.id), title: d.title },
      });
  }
  for (const l of leftover) {
    const addr = address(ctx.org, l.title);
    drafts.prune({
      address: addr,
      id: l.id,
      before: { title: l.title },
      op: { type: 'delete-translation', org: ctx.org, translation: liveRef(l.id) },
    });
  }
}

function exportEntries(live: LiveTranslation[] | undefined, ctx: ExportContext): Config[] | undefined {
  if (!live) return undefined;
  if (absentHere({ absentIn: ABSENT_IN }, ctx.caps)) {
    if (live.length > 0)
      ctx.warnings.push(
        "translations are left out: today's API has a different translation resource that docsync does not manage (--api-flavor current)",
      );
    return undefined;
  }
  const dup = duplicatesOf(live.map((x) => x.title));
  return live.map((x) => ({ title: x.title, ...(dup.has(x.title) ? { id: x.id } : {}) }));
}

/**
 * Today's translations are read but not managed (docs/compatibility.md): export lists them in a
 * comment, so the output still plans to zero changes, and says so in a warning.
 */
function todayNote(ctx: ExportContext): string {
  const list = (ctx.org.readOnly?.['translations'] ?? []) as Today[];
  if (list.length === 0) return '';
  ctx.warnings.push(
    `${list.length} translation(s) of today's API are not managed by docsync: listed in a comment of organization.yaml`,
  );
  const lines = list.map((t) => `\n   ${t.id}: space ${t.sourceSpace} (${t.sourceLanguage}) → ${t.language}`);
  return `\n Translations (today's API; read only, docsync does not manage them):${lines.join('')}`;
}

export const translationKind: ListKind<
  'translations',
  Config,
  DesiredTranslation,
  LiveTranslation,
  TranslationOp,
  'translation'
> = {
  kind: 'translation',
  key: 'translations',
  config: Config,
  docs: {
    'translations[]': {
      title: 'translation settings',
      identity: '`title`',
      example: [{ title: 'French' }],
    },
  },
  unique: { what: 'translation', key: 'title', pinned: true },
  normalize: (t) => defined({ title: t.title, id: t.id, previously: t.previously }),
  reads: [
    {
      list: (org) => ({ route: LIST, params: { org }, item: Answer }),
      live: (x: Answer): LiveTranslation => ({ id: x.id, title: x.title }),
    },
    {
      readOnly: true,
      list: (org) => ({ route: LIST, params: { org }, item: TodayAnswer }),
      live: (x: z.infer<typeof TodayAnswer>): Today => ({
        id: x.id,
        sourceSpace: x.source.space,
        sourceLanguage: x.source.language,
        language: x.language,
      }),
    },
  ],
  absentIn: ABSENT_IN,
  readOnlyIn: ABSENT_IN,
  absent: (caps) =>
    `translations by title are api.md's translation settings; the current API has a different translation resource (use ${caps.otherwise})`,
  diff,
  export: { file: 'organization.yaml', header: 'translations', entries: exportEntries, note: todayNote },
  ops: {
    'create-translation': {
      call: (op) => ({
        method: 'POST',
        route: LIST,
        params: { org: op.org },
        body: { title: op.title },
        expect: [201],
        answer: Answer,
        create: true,
      }),
      output: idOutput,
      adopt: {
        list: (op) => ({ route: LIST, params: { org: op.org }, item: Answer }),
        find: (t: Answer, op) => t.title === op.title,
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
        answer: Answer,
      }),
    },
    'delete-translation': {
      call: (op, r, caps) => deleteCall(ROUTE, { org: op.org, translation: r.ref(op.translation) }, caps),
    },
  },
  examples: {
    pairs: [
      {
        config: { title: 'French' },
        seed: { title: 'French' },
        changed: { title: 'Français', previously: ['French'] },
      },
      {
        config: { title: 'German' },
        seed: { title: 'German' },
        changed: { title: 'Deutsch', previously: ['German'] },
      },
    ],
  } satisfies KindExamples<Config>,
};
