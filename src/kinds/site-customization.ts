import { z } from 'zod';
import type { DiffContext } from '../diff/context.js';
import type { SiteScope } from '../diff/site-scope.js';
import type { ApiCapabilities } from '../model/capabilities.js';
import type { Ref } from '../model/change.js';
import type { KindExamples } from './examples.js';
import { LANGUAGES } from './fields.js';
import type { SiteFacet } from './value-shapes.js';
import {
  diffSparseFacet,
  exportSparse,
  nestedDocs,
  nullableAt,
  sparseRead,
  type SparseDoc,
} from './sparse.js';

/**
 * A site's customization (today's API: `GET`/`PUT /orgs/{org}/sites/{site}/customization`), managed
 * sparsely: only the keys the config gives are compared and written. The PUT replaces the whole
 * document, so the plan computes the document to send from the live one and the config: what the
 * plan shows (the changed keys) is what apply does (decision 0037). A key of the site entry.
 */

export type SiteCustomizationOp = {
  type: 'set-site-customization';
  org: string;
  site: Ref;
  /** The whole document the PUT sends: the live one with the config's keys set. */
  document: Record<string, unknown>;
};

const ROUTE = '/orgs/{org}/sites/{site}/customization';

/** Values replaced whole (one of several shapes, or a reference): never merged key by key. */
export const CUSTOMIZATION_ATOMIC: ReadonlySet<string> = new Set([
  'favicon',
  'styling.font',
  'styling.headingFont',
  'styling.monospaceFont',
  'header.primaryLink',
  'announcement.link',
]);

// The official document's values (SiteCustomizationSettingsBase), for the keys docsync manages.
const Color = z.string().regex(/^#(?:[0-9a-fA-F]{3}){1,2}$/, 'must be a color such as #346DDB');
const themed = <T extends z.ZodType>(t: T) => z.strictObject({ light: t.optional(), dark: t.optional() });
const Url = z.url().max(2048);
const localized = (max: number) => z.partialRecord(z.enum(LANGUAGES), z.string().max(max));
/**
 * A value docsync passes on whole and the API checks in full (a reference to content, a link, a
 * font definition, a list's item): an object holding `keys`.
 */
const opaque = (what: string, keys: readonly string[]) =>
  z
    .record(z.string(), z.unknown())
    .refine((v) => keys.every((k) => v[k] !== undefined), `must be ${what} (with ${keys.join(', ')})`)
    .describe(`${what[0]!.toUpperCase()}${what.slice(1)}, passed on whole: the API checks it.`);
const ContentRef = opaque('a reference to content (`ContentRef`: `{ kind: url, url }`…)', ['kind']);
const ContentLink = opaque('a link (`{ title, to }`)', ['title', 'to']);
const fonts = [
  'ABCFavorit', 'Inter', 'Roboto', 'RobotoSlab', 'OpenSans', 'SourceSansPro', 'Lato', 'Ubuntu', 'Raleway',
  'Merriweather', 'Overpass', 'NotoSans', 'IBMPlexSerif', 'Poppins', 'FiraSans',
] as const; // prettier-ignore
const monospaceFonts = [
  'FiraCode', 'IBMPlexMono', 'JetBrainsMono', 'SourceCodePro', 'RobotoMono', 'SpaceMono', 'DMMono', 'Inconsolata',
] as const; // prettier-ignore
const FontDefinition = opaque('a font definition', ['id', 'custom', 'fontFamily', 'fontFaces']);
const CodeTheme = z
  .string()
  .min(1)
  .describe('A code theme of the official document (github-light, dracula…).');
const toggle = z.strictObject({ enabled: z.boolean().optional() });

const Styling = z.strictObject({
  theme: z.enum(['clean', 'muted', 'bold', 'gradient']).optional(),
  primaryColor: themed(Color).optional(),
  infoColor: themed(Color).optional(),
  successColor: themed(Color).optional(),
  warningColor: themed(Color).optional(),
  dangerColor: themed(Color).optional(),
  tint: z.strictObject({ color: themed(Color).optional() }).optional(),
  corners: z.enum(['straight', 'rounded', 'circular']).optional(),
  depth: z.enum(['subtle', 'flat']).optional(),
  links: z.enum(['default', 'accent']).optional(),
  font: z.union([z.enum(fonts), FontDefinition]).optional(),
  headingFont: z
    .union([z.enum(fonts), FontDefinition])
    .nullable()
    .optional(),
  monospaceFont: z.union([z.enum(monospaceFonts), FontDefinition]).optional(),
  background: z.enum(['plain', 'match']).optional().describe('Deprecated by the API (use tint).'),
  icons: z.enum(['regular', 'solid', 'duotone', 'light', 'thin']).optional(),
  codeTheme: z
    .strictObject({ default: themed(CodeTheme).optional(), openapi: themed(CodeTheme).optional() })
    .optional(),
  sidebar: z
    .strictObject({
      background: z.enum(['default', 'filled']).optional(),
      list: z.enum(['default', 'pill', 'line']).optional(),
    })
    .optional(),
  search: z.enum(['prominent', 'subtle']).optional(),
});

/** `{ icon: { light, dark } }`, `{ emoji }` or `{}`; replaced whole. */
const Favicon = z.record(z.string(), z.unknown()).refine((v) => {
  const keys = Object.keys(v);
  return keys.length === 0 || (keys.length === 1 && (keys[0] === 'icon' || keys[0] === 'emoji'));
}, 'must be { icon: { light, dark } }, { emoji } or {}');

export const CustomizationConfig = z
  .strictObject({
    title: z.string().min(2).max(128).optional().describe('Title of the published site.'),
    localizedTitle: localized(128).optional().describe('Titles by locale (`fr: Documentation`).'),
    styling: Styling.optional(),
    internationalization: z
      .strictObject({
        locale: z.enum(['en', 'fr', 'es', 'zh', 'ja', 'de', 'nl', 'no', 'pt-br', 'ru']).optional(),
      })
      .optional()
      .describe('Deprecated by the API.'),
    favicon: Favicon.optional().describe(
      '`{ icon: { light, dark } }`, `{ emoji }` or `{}` (none); replaced whole.',
    ),
    header: z
      .strictObject({
        preset: z.enum(['default', 'bold', 'contrast', 'custom', 'none']).optional(),
        logo: themed(Url).optional(),
        primaryLink: ContentRef.optional().describe('A content reference; replaced whole.'),
        links: z
          .array(opaque('a header link (`{ title, to, links }`)', ['title', 'links']))
          .optional()
          .describe('The header links, replaced as a whole list.'),
      })
      .optional(),
    footer: z
      .strictObject({
        logo: themed(Url).optional(),
        groups: z
          .array(opaque('a footer group (`{ title, links }`)', ['title', 'links']))
          .optional()
          .describe('The footer groups, replaced as a whole list.'),
        copyright: z.string().max(512).optional(),
      })
      .optional(),
    announcement: z
      .strictObject({
        enabled: z.boolean().optional(),
        message: z.string().min(2).max(128).optional(),
        localizedMessage: localized(128).optional(),
        link: ContentLink.optional(),
        style: z.enum(['info', 'warning', 'danger', 'success']).optional(),
      })
      .optional(),
    themes: z
      .strictObject({
        default: z.enum(['light', 'dark', 'system']).optional(),
        toggeable: z.boolean().optional(),
      })
      .optional(),
    feedback: toggle.optional(),
    ai: z
      .strictObject({
        mode: z.enum(['none', 'search', 'assistant']).optional(),
        greeting: z.string().max(256).optional(),
        localizedGreeting: localized(128).optional(),
        suggestions: z.array(z.string().min(3).max(64)).max(5).optional(),
        instructions: z.string().max(10_000).optional(),
      })
      .optional(),
    advancedCustomization: toggle.optional(),
    pageActions: z
      .strictObject({
        items: z.array(z.enum(['assistant', 'external-ai', 'markdown', 'mcp', 'git', 'pdf'])).optional(),
      })
      .optional(),
    externalLinks: z.strictObject({ target: z.enum(['self', 'blank']).optional() }).optional(),
    pagination: toggle.optional(),
    trademark: toggle.optional(),
    privacyPolicy: z.strictObject({ url: Url.optional() }).optional(),
    socialPreview: z.strictObject({ url: Url.optional() }).optional(),
    socialAccounts: z
      .array(opaque('a social account (`{ platform, handle, display }`)', ['platform', 'handle']))
      .max(10)
      .optional()
      .describe('Replaced as a whole list.'),
    insights: z.strictObject({ trackingCookie: z.boolean().optional() }).optional(),
  })
  .describe('Sparse: only the keys given are managed.');
const Config = CustomizationConfig;

/**
 * The keys a site space's `PATCH …/customization` takes `null` for (the official document: "set a
 * field to null to clear its override and fall back to the site-level value"). A test compares
 * this list with the document.
 */
export const OVERRIDE_NULLABLE: ReadonlySet<string> = new Set([
  'title', 'localizedTitle', 'favicon',
  ...['theme', 'primaryColor', 'infoColor', 'successColor', 'warningColor', 'dangerColor', 'tint', 'corners',
    'depth', 'links', 'icons', 'sidebar.background', 'sidebar.list', 'search', 'background', 'codeTheme.default',
    'codeTheme.openapi'].map((k) => `styling.${k}`),
  'internationalization.locale',
  ...['preset', 'logo', 'primaryLink', 'backgroundColor', 'linkColor', 'links'].map((k) => `header.${k}`),
  'footer.logo', 'footer.groups', 'footer.copyright', 'themes.default', 'themes.toggeable',
  'feedback.enabled', 'externalLinks.target', 'pagination.enabled', 'trademark.enabled', 'privacyPolicy.url',
  'socialPreview.url',
]); // prettier-ignore

/**
 * A site space's overrides in config: the site's keys, and `null` where the PATCH takes it (no
 * override of that key: the site's value).
 */
export const OverridesConfig = nullableAt(CustomizationConfig, OVERRIDE_NULLABLE) as z.ZodType<
  Record<string, unknown>
>;
type Config = z.infer<typeof Config>;

/**
 * The document of a site nobody customized, as this module knows it (the official document's
 * required keys, with GitBook's defaults): export leaves out what equals it, and the emulator
 * answers it for a new site.
 */
export const CUSTOMIZATION_DEFAULTS: SparseDoc = {
  styling: {
    theme: 'clean',
    primaryColor: { light: '#346DDB', dark: '#346DDB' },
    infoColor: { light: '#787878', dark: '#787878' },
    successColor: { light: '#00C950', dark: '#00C950' },
    warningColor: { light: '#FE9A00', dark: '#FE9A00' },
    dangerColor: { light: '#FB2C36', dark: '#FB2C36' },
    corners: 'rounded',
    depth: 'subtle',
    links: 'default',
    font: 'Inter',
    monospaceFont: 'IBMPlexMono',
    background: 'plain',
    icons: 'regular',
    codeTheme: {
      default: { light: 'default-light', dark: 'default-dark' },
      openapi: { light: 'default-light', dark: 'default-dark' },
    },
    sidebar: { background: 'default', list: 'default' },
    search: 'subtle',
  },
  internationalization: { locale: 'en' },
  favicon: {},
  header: { preset: 'default', links: [] },
  footer: { groups: [] },
  themes: { default: 'system', toggeable: true },
  feedback: { enabled: false },
  ai: { mode: 'search' },
  advancedCustomization: { enabled: true },
  trademark: { enabled: true },
  externalLinks: { target: 'self' },
  pagination: { enabled: true },
  pageActions: { items: ['assistant', 'markdown', 'external-ai', 'mcp'] },
  privacyPolicy: {},
  socialPreview: {},
  socialAccounts: [],
  insights: { trackingCookie: true },
};

const Answer = z.looseObject({ updatedAt: z.string().optional() });

/** The live document without what the PUT does not take back (`updatedAt`). */
function liveDocument(answer: z.infer<typeof Answer>): SparseDoc {
  const { updatedAt: _updatedAt, ...doc } = answer;
  return doc;
}

/** Live: the document; undefined when the site is not live yet (this plan creates it). */
function diff(ctx: DiffContext, site: SiteScope, _title: string, d: Config, l: SparseDoc | null | undefined) {
  const facet = {
    kind: 'site-customization',
    key: 'customization',
    atomic: CUSTOMIZATION_ATOMIC,
    defaults: CUSTOMIZATION_DEFAULTS,
  };
  diffSparseFacet<SiteCustomizationOp>(ctx, facet, site, d, l, (document) => ({
    type: 'set-site-customization',
    org: ctx.org,
    site: site.ref,
    document,
  }));
}

const absent = (caps: ApiCapabilities) =>
  `sites[].customization is not in this API (${caps.flavor}): only today's API (--api-flavor current) has a site's customization`;

export const siteCustomizationKind: SiteFacet<
  'customization',
  Config,
  Config,
  SparseDoc | null,
  SiteCustomizationOp,
  'site-customization'
> = {
  kind: 'site-customization',
  key: 'customization',
  absentIn: ['seed'],
  absent,
  config: Config,
  describe:
    "The site's customization (today's API), sparse: only the keys given are compared and written, the others stay as they are.",
  docs: {
    'sites[].customization': {
      title: 'customization (sparse)',
      notes: [
        'Only the keys given are managed: the plan compares them one by one and shows each changed key by its path (`styling.primaryColor.light: "#346DDB" → "#0055FF"`); every other key of the live document stays as it is.',
        'The API replaces the whole document: the plan computes it from the live one and the config, and apply sends exactly that. A saved plan refuses to apply once the live document moved.',
        'Lists (`header.links`, `footer.groups`, `socialAccounts`, `ai.suggestions`) and `favicon`, fonts and links to content are replaced whole.',
        'For a site this plan creates, the document sent is the defaults of a new site with the keys given, after the creation.',
        'Export writes the keys that differ from the defaults of a new site.',
        'For example `customization: { styling: { theme: bold, primaryColor: { light: "#0055FF" } }, trademark: { enabled: false } }` manages those three keys.',
      ],
    },
    ...nestedDocs('sites[].customization', Config),
  },
  normalize: (c) => c,
  read: sparseRead(ROUTE, Answer, liveDocument),
  diff,
  export: (l, caps) => exportSparse<Config>(l, caps, CUSTOMIZATION_DEFAULTS, CUSTOMIZATION_ATOMIC),
  ops: {
    'set-site-customization': {
      call: (op, r) => ({
        method: 'PUT',
        route: ROUTE,
        params: { org: op.org, site: r.ref(op.site) },
        body: op.document,
        expect: [200],
      }),
    },
  },
  examples: {
    flavor: 'current',
    pairs: [
      {
        config: { styling: { primaryColor: { light: '#0055FF' } }, trademark: { enabled: false } },
        seed: {
          customization: { styling: { primaryColor: { light: '#0055FF' } }, trademark: { enabled: false } },
        },
        changed: { styling: { primaryColor: { light: '#FF5500' } }, trademark: { enabled: false } },
      },
    ],
  } satisfies KindExamples<Config>,
};
