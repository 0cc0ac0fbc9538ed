/**
 * zod's settings for a docsync process, set before zod is loaded: imported first by ./start.ts,
 * so that every schema the process builds sees them. Through the global object zod reads its
 * settings from (`globalThis.__zod_globalConfig`, what `z.config()` returns), because importing
 * zod here would load it for `docsync --version` and `--help` too, which never use it.
 *
 * - `jitless`: zod compiles no parser per object schema (`new Function` of its generated source
 *   at the schema's first parse). docsync's config values mostly go through its own fast path
 *   (src/config/fast-schema.ts), so in a one-shot process those parsers are compiled to run a
 *   few times: `validate` of examples/config compiled 22 of them (100 KB of source, which the code
 *   cache cannot hold) and took about 25 ms more CPU than without (decision 42, seventeenth pass
 *   (start7)). The results are the same: zod's interpreted path is the one the parsers stand for.
 */
const ZOD_SETTINGS = { jitless: true } as const;

const global = globalThis as { __zod_globalConfig?: Record<string, unknown> };
Object.assign((global.__zod_globalConfig ??= {}), ZOD_SETTINGS);

export {};
