/** The GitHub Action's entry point, bundled into dist-action/index.js by `npm run bundle`. */
import { runAction } from './run.js';

process.exitCode = await runAction();
