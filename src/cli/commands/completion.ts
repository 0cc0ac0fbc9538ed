import { Argument } from 'commander';
import { completionScript, shells, type Shell } from '../completion.js';
import { out } from '../output.js';
import type { CommandWiring } from './wiring.js';

export const completion: CommandWiring = {
  name: 'completion',
  examples: [
    'docsync completion bash > ~/.local/share/bash-completion/completions/docsync',
    'source <(docsync completion zsh)',
    'docsync completion fish > ~/.config/fish/completions/docsync.fish',
  ],
  readsProgram: true,
  wire: (cmd, { setExit, program }) =>
    cmd
      .description('print the shell completion script (bash, zsh or fish)')
      .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(shells))
      .action((shell: Shell) => {
        out(completionScript(program, shell));
        setExit(0);
      }),
};
