// The one definition of how docsync is bundled with esbuild (docs/decisions/0045-one-bundled-cli.md),
// shared by `npm run build` (scripts/build.mjs: dist/cli.js), the tests' copy of the
// CLI (test/global-setup.ts: .test-dist/bin/) and the GitHub Action (scripts/bundle-action.mjs).
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { URL, fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * src/ loads two CommonJS modules through createRequire(import.meta.url) (to skip undici's index;
 * to load yaml lazily), which esbuild cannot follow: as plain require() calls it bundles them, so
 * that the bundle needs no node_modules at run time.
 */
export const inlineCreateRequire = {
  name: 'inline-create-require',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const contents = source
        .replace(/^const require = createRequire\(import\.meta\.url\);$/m, '')
        .replace(/createRequire\(import\.meta\.url\)\(/g, 'require(');
      return { contents, loader: 'ts' };
    });
  },
};

/**
 * zod's `locales` namespace (`z.locales`) re-exports its messages in some fifty languages, about
 * half of zod's bytes in the bundle, which esbuild cannot drop (a namespace export). docsync uses
 * none of them but English, which zod's schemas import on their own: the namespace is reduced
 * to `en`, so that every command that loads zod parses 300 KB less.
 */
export const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    // The namespace's path is a fixed name, not the file's absolute path: esbuild writes it into
    // the bundle (a comment and a key), which must not depend on where the checkout lives.
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer)
        ? {
            path: 'zod/v4/locales/index.js',
            namespace: 'zod-locales',
            pluginData: { dir: join(dirname(args.importer), '..', 'locales') },
          }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: `export { default as en } from './en.js';`,
      loader: 'js',
      resolveDir: args.pluginData.dir,
    }));
  },
};

/**
 * undici's HTTP/1.1 client loads its HTTP/2 client, and with it Node's `http2` and `tls`, when it is
 * loaded: about 10 ms of every command that makes a request, for a protocol docsync never asks for
 * (undici speaks HTTP/2 only when `allowH2` is set). The HTTP/2 client is loaded when first used.
 */
export const undiciH2OnUse = lineOnUse(
  'undici-h2-on-use',
  /[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/,
  "const connectH2 = require('./client-h2.js')",
  "const connectH2 = (client, socket) => require('./client-h2.js')(client, socket)",
);

/**
 * commander requires Node's `child_process` when it is loaded, and with it `net`, `dgram` and their
 * internals (about 15 of Node's modules), for executable subcommands (`docsync-<name>` files),
 * which docsync never declares: every command paid for loading them, `docsync --version` about a
 * tenth of its CPU. `child_process` is required when commander first spawns.
 */
export const commanderSpawnOnUse = lineOnUse(
  'commander-spawn-on-use',
  /[\\/]commander[\\/]lib[\\/]command\.js$/,
  "const childProcess = require('node:child_process');",
  "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };",
);

/**
 * An esbuild plugin that writes, in the dependency file `filter` matches, `line` (a `require` run
 * when the file loads) as `lazy` (the same `require` run when first used). The build fails when the
 * file no longer holds `line`: the dependency changed and the plugin must be looked at again.
 */
function lineOnUse(name, filter, line, lazy) {
  return {
    name,
    setup(b) {
      b.onLoad({ filter }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        if (!source.includes(line)) throw new Error(`${args.path}: no "${line}" (changed: see ${name})`);
        return { contents: source.replace(line, lazy), loader: 'js' };
      });
    },
  };
}

/** CommonJS dependencies inside an ES module bundle still require() Node's own modules. */
export const REQUIRE_SHIM =
  "import { createRequire as __docsyncCreateRequire } from 'node:module'; const require = __docsyncCreateRequire(import.meta.url);";

/** One ES module for Node.js 20+, its imports bundled, built from the repository's root. */
const NODE_ESM = { absWorkingDir: ROOT, bundle: true, format: 'esm', platform: 'node', target: 'node20' };

/**
 * What every docsync bundle shares: one ES module program for Node.js with its dependencies
 * inside (nothing left to node_modules), src/'s createRequire calls followed.
 * `commit`: the commit `docsync version` prints, embedded (undefined: found at run time, from
 * the checkout, else `unknown`).
 */
export function bundleOptions({ commit } = {}) {
  return {
    ...NODE_ESM,
    plugins: [inlineCreateRequire, zodEnglishOnly, undiciH2OnUse, commanderSpawnOnUse],
    banner: { js: REQUIRE_SHIM },
    logLevel: 'error',
    ...(commit === undefined ? {} : { define: { __DOCSYNC_COMMIT__: JSON.stringify(commit) } }),
  };
}

/**
 * The CLI: `<outdir>/cli.js`, one file, with a linked source map, so that
 * `node --enable-source-maps` stack traces name src/. A command's module is imported with
 * `import()` (src/cli/commands/), which esbuild turns into a lazy initializer: `docsync
 * --version` evaluates none of the daemon, the emulator, the plan pipeline... Minified for less
 * to parse at each start, names kept as written. Not split into chunks: measured, splitting
 * saved 0.1 s of `--version` but cost 20 MB of peak RSS and more CPU on the heavy plan
 * (decision 45). `entries`: more programs bundled beside it, each in its own file.
 */
export function cliOptions({ outdir, commit, entries = [] } = {}) {
  return {
    ...bundleOptions({ commit }),
    entryPoints: [{ in: 'src/cli.ts', out: 'cli' }, ...entries],
    outdir,
    sourcemap: 'linked',
    sourcesContent: false, // the mappings are what stack traces need; the package stays small
    minifyWhitespace: true,
    minifySyntax: true,
  };
}

/**
 * What `npm run build` ships (decision 46): `<outdir>/docsync.cjs`, the CLI of `cliOptions` as one
 * CommonJS program (V8 code caches are for scripts: `vm.Script`, not ES modules), with its linked
 * source map, and `<outdir>/cli.js`, the launcher that runs it with the build's code cache
 * (`launcherOptions`). `import.meta.url` is the program's own file URL.
 */
export function programOptions({ outdir, commit } = {}) {
  const cli = cliOptions({ outdir, commit });
  return {
    ...cli,
    format: 'cjs',
    entryPoints: [{ in: 'src/cli-program.ts', out: 'docsync' }],
    outExtension: { '.js': '.cjs' },
    // The licences' comments in docsync.cjs.LEGAL.txt, linked from the program: some hold
    // non-ASCII names, and the program is kept ASCII (esbuild escapes the rest), which V8 holds
    // and the launcher reads as one byte a character (decision 46).
    legalComments: 'linked',
    banner: { js: 'var __docsyncModuleUrl = require("node:url").pathToFileURL(__filename).href;' },
    define: { ...cli.define, 'import.meta.url': '__docsyncModuleUrl' },
  };
}

/**
 * The launcher, `<outdir>/cli.js`: a few lines that start `<outdir>/docsync.cjs` (src/cli-launcher.ts).
 * CommonJS, made so by `LAUNCHER_PACKAGE_JSON` beside it: an ES module entry point costs every
 * process Node's ES module loader (its own modules, a facade per Node module imported), about 9 ms
 * of CPU, for a launcher that imports nothing but Node's modules.
 */
export function launcherOptions({ outdir } = {}) {
  return {
    ...NODE_ESM,
    format: 'cjs',
    entryPoints: [{ in: 'src/cli-launcher.ts', out: 'cli' }],
    outdir,
    logLevel: 'error',
    banner: { js: 'var __docsyncLauncherUrl = require("node:url").pathToFileURL(__filename).href;' },
    define: { 'import.meta.url': '__docsyncLauncherUrl' },
  };
}

/**
 * `<outdir>/package.json`: the `.js` files of the shipped folder (the launcher) are CommonJS, where
 * docsync's own package.json says ES modules. No name: `packageRoot()` (src/package-root.ts) looks
 * past it for docsync's.
 */
export const LAUNCHER_PACKAGE_JSON = `${JSON.stringify({ type: 'commonjs' })}\n`;
