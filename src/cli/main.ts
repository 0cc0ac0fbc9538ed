import { Command } from 'commander';
import { errorCode } from '../errors.js';
import { VERSION } from '../version.js';
import { COMMANDS } from './commands/index.js';
import type { CommandRun, CommandWiring, SetExit } from './commands/wiring.js';
import { effectiveLogLevel } from './log-level.js';
import { err } from './output.js';
import { dropEmptyEnv } from './settings.js';

/** One example per command, shown at the end of its `--help` (each line works as pasted). */
export const EXAMPLES: Record<string, readonly string[]> = Object.fromEntries(
  COMMANDS.map((c) => [c.name, c.examples]),
);

/** Appends a command's examples to its help. */
function addExamples(cmd: Command, lines: readonly string[]): void {
  if (lines.length === 0) return;
  cmd.addHelpText(
    'after',
    `\nExample${lines.length > 1 ? 's' : ''}:\n${lines.map((l) => `  $ ${l}`).join('\n')}`,
  );
}

/** The program without commands: its description, version, error handling and log level hook. */
function bareProgram(): Command {
  return (
    new Command('docsync')
      .description(
        'GitOps for your documentation platform: plan and apply sites, sections, share links, custom fields and teams from YAML.',
      )
      .version(VERSION)
      // Commander throws instead of calling process.exit, here and in every subcommand (they
      // inherit it): main() turns that into the exit code.
      .exitOverride()
      .configureOutput({ outputError: (text) => err(text.trimEnd()) })
      .hook('preAction', (_program, command) => {
        if (command.getOptionValue('logLevel') === undefined) return;
        command.setOptionValue(
          'logLevel',
          effectiveLogLevel({
            command: command.name(),
            level: String(command.getOptionValue('logLevel')),
            explicit: command.getOptionValueSource('logLevel') !== 'default',
            stderrIsTty: process.stderr.isTTY === true,
          }),
        );
      })
  );
}

/**
 * The commands a process started with `argv` wires: the one its first argument names, which is all
 * that command's flags, help and action need; none for the program's version flag; else every
 * one (the program's help, `help <command>`, an unknown command's suggestions, a command that
 * reads the others). Wiring
 * all fifteen and their flags took a few ms of every process's start (decision 42, seventeenth
 * pass (start7)).
 */
export function commandsFor(argv: readonly string[]): readonly CommandWiring[] {
  // The program's version flag first: commander prints the version as it reads the flag.
  if (argv[2] === '--version' || argv[2] === '-V') return [];
  const named = COMMANDS.find((c) => c.name === argv[2]);
  return named && !named.readsProgram ? [named] : COMMANDS;
}

/** The commander program: `commands` (every command of `COMMANDS`, src/cli/commands/), wired in order. */
export function buildProgram(
  setExit: SetExit,
  run?: CommandRun,
  commands: readonly CommandWiring[] = COMMANDS,
): Command {
  const program = bareProgram();
  for (const command of commands) {
    const cmd = program.command(command.name);
    command.wire(cmd, { setExit, program, ...(run ? { run } : {}) });
    addExamples(cmd, command.examples);
  }
  program.addHelpText(
    'after',
    '\nExamples:\n  $ docsync plan --config config\n  $ docsync help plan\n  $ docsync completion bash',
  );
  return program;
}

/** `--log-level debug` (or trace), as a flag or DOCSYNC_LOG_LEVEL: an error shows its stack too. */
function debugging(argv: readonly string[]): boolean {
  const i = argv.findIndex((a) => a === '--log-level' || a.startsWith('--log-level='));
  const level =
    i < 0 ? process.env['DOCSYNC_LOG_LEVEL'] : argv[i]!.includes('=') ? argv[i]!.split('=')[1] : argv[i + 1];
  return level === 'debug' || level === 'trace';
}

/** The CLI; `run`: how a long-running command runs inside a program that is more than it (the tests). */
export async function main(argv: string[], run?: CommandRun): Promise<number> {
  let code = 0;
  try {
    dropEmptyEnv();
    const program = buildProgram((c) => (code = c), run, commandsFor(argv));
    await program.parseAsync(argv);
  } catch (error) {
    const e = error as { code?: string; exitCode?: number; message?: string; stack?: string };
    if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version') return 0;
    if (e.code?.startsWith('commander.')) return e.exitCode ?? 1;
    const stable = errorCode(error);
    // A user's mistake is one line; the stack is for debugging (--log-level debug).
    err(`error: ${e.message ?? String(error)}${stable ? ` [${stable}]` : ''}`);
    if (debugging(argv) && e.stack) err(e.stack);
    return 1;
  }
  return code;
}
