import { access } from './access.js';
import { apply } from './apply.js';
import { comment } from './comment.js';
import { completion } from './completion.js';
import { daemon } from './daemon.js';
import { resume, suspend } from './daemon-control.js';
import { demo } from './demo.js';
import { drift } from './drift.js';
import { emulator } from './emulator.js';
import { exportWiring } from './export.js';
import { plan } from './plan.js';
import { unlock } from './unlock.js';
import { validate } from './validate.js';
import { version } from './version.js';
import type { CommandWiring } from './wiring.js';

/**
 * Every command of `docsync`, in the order `--help` lists them. A new command: one file in this
 * folder exporting its `CommandWiring`, and one line here.
 */
export const COMMANDS: readonly CommandWiring[] = [
  validate,
  plan,
  apply,
  drift,
  comment,
  unlock,
  suspend,
  resume,
  exportWiring,
  access,
  daemon,
  emulator,
  demo,
  completion,
  version,
];
