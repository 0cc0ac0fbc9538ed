/** The GitHub Action's entry point, bundled into dist-action/index.js by `npm run bundle`. */
import { applyV8Settings } from '../v8-settings.js';
import { runAction } from './run.js';

applyV8Settings();
process.exitCode = await runAction();
