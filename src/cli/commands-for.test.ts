import { describe, expect, it } from 'vitest';
import { COMMANDS } from './commands/index.js';
import { buildProgram, commandsFor } from './main.js';

const argv = (...args: string[]) => ['node', 'docsync', ...args];

describe('commandsFor: the commands a process wires', () => {
  it('is the one command the first argument names', () => {
    expect(commandsFor(argv('plan', '--config', 'config')).map((c) => c.name)).toEqual(['plan']);
    expect(commandsFor(argv('version', '-o', 'json')).map((c) => c.name)).toEqual(['version']);
  });

  it('is none for the version flag, which commander answers as it reads it', () => {
    expect(commandsFor(argv('--version'))).toEqual([]);
    expect(commandsFor(argv('-V', 'plan'))).toEqual([]);
  });

  it('is every command for the program itself, help, an unknown command and completion', () => {
    for (const args of [[], ['--help'], ['-h'], ['help', 'plan'], ['pla'], ['completion', 'bash']])
      expect(commandsFor(argv(...args))).toBe(COMMANDS);
  });

  it("gives each command the same help (its flags, defaults and examples) as the whole program's", () => {
    for (const { name } of COMMANDS) {
      const help = (program: ReturnType<typeof buildProgram>) =>
        program.commands.find((c) => c.name() === name)!.helpInformation();
      expect(help(buildProgram(() => {}, undefined, commandsFor(argv(name)))), name).toBe(
        help(buildProgram(() => {})),
      );
    }
  });
});
