// `npm start`: build dist/ only when a source changed since the last build, then run the demo
// (`docsync demo`) with the flags given after `npm start --`, e.g. `npm start -- --port 9090`.
import process from 'node:process';
import { join } from 'node:path';
import { URL, fileURLToPath, pathToFileURL } from 'node:url';
import { distIsCurrent } from './dist-current.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
if (!distIsCurrent(root)) {
  process.stderr.write('dist/ is older than src/: building (npm run build)\n');
  const { buildCli } = await import('./build.mjs');
  await buildCli();
}
const cli = join(root, 'dist', 'cli.js');
process.argv = [process.argv[0], cli, 'demo', ...process.argv.slice(2)];
await import(pathToFileURL(cli).href);
