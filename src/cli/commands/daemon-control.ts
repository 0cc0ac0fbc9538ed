import { wireDaemonControl } from '../daemon-control.js';
import type { CommandWiring } from './wiring.js';

/** `docsync suspend|resume --org ID`: asks a running daemon (decision 32). */
export const suspend: CommandWiring = {
  name: 'suspend',
  examples: ['docsync suspend --org org_abc --daemon http://127.0.0.1:8080'],
  wire: (cmd, { setExit }) => wireDaemonControl('suspend', cmd, setExit),
};

export const resume: CommandWiring = {
  name: 'resume',
  examples: ['docsync resume --org org_abc --ui-auth-file ui-auth.txt'],
  wire: (cmd, { setExit }) => wireDaemonControl('resume', cmd, setExit),
};
