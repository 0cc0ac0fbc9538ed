import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { completionScript, commandTree } from '../../src/cli/completion.js';
import { buildProgram, EXAMPLES } from '../../src/cli/main.js';
import { ROOT, runMain, spawnCli } from '../helpers/cli.js';

const program = () => buildProgram(() => {});
const has = (cmd: string) => spawnSync(cmd, ['--version'], { stdio: 'ignore' }).status === 0;

/**
 * Bash's own completion: source the script, set the words, call the function `complete` registered;
 * one bash for all the word lists (a bash per list cost a process start each).
 */
function bashCompleteAll(lists: string[][]): string[][] {
  const file = join(mkdtempSync(join(tmpdir(), 'docsync-completion-')), 'docsync.bash');
  writeFileSync(file, completionScript(program(), 'bash'));
  const script = [
    `source ${JSON.stringify(file)}`,
    `fn=$(complete -p docsync | sed -E 's/.* -F ([^ ]+) docsync$/\\1/')`,
    ...lists.flatMap((words) => [
      `COMP_WORDS=(${words.map((w) => JSON.stringify(w)).join(' ')})`,
      `COMP_CWORD=${words.length - 1}`,
      'COMPREPLY=()',
      '"$fn"',
      'printf "%s\\n" "${COMPREPLY[@]}" "--end--"',
    ]),
  ].join('\n');
  const lines = execFileSync('bash', ['--norc', '-c', script], { encoding: 'utf8' }).split('\n');
  const answers: string[][] = [[]];
  for (const line of lines)
    if (line === '--end--') answers.push([]);
    else if (line) answers.at(-1)!.push(line);
  return answers.slice(0, lists.length);
}

describe('docsync completion', () => {
  it('bash: `complete` registers it; commands, flags, -o values and completion shells come from the program', () => {
    const subs = program().commands.map((c) => c.name());
    expect(subs).toEqual(expect.arrayContaining(['plan', 'apply', 'drift', 'completion', 'version']));
    const tree = commandTree(program()).subs;
    const [all, pl, det, o, format, flavor, shells, config, ...perCommand] = bashCompleteAll([
      ['docsync', ''],
      ['docsync', 'pl'],
      ['docsync', 'plan', '--det'],
      ['docsync', 'plan', '-o', ''],
      ['docsync', 'drift', '--format', 'j'],
      ['docsync', 'plan', '--api-flavor', ''],
      ['docsync', 'completion', ''],
      ['docsync', 'plan', '--config', ''],
      ...tree.map((sub) => ['docsync', sub.name, '-']),
    ]);
    expect(all).toEqual(expect.arrayContaining([...subs, '--help', '--version']));
    expect(pl).toEqual(['plan']);
    expect(det).toEqual(['--detailed-exitcode']);
    expect(o).toEqual(['text', 'json', 'markdown']);
    expect(format).toEqual(['json']);
    expect(flavor).toEqual(['seed', 'current']);
    expect(shells).toEqual(expect.arrayContaining(['bash', 'zsh', 'fish']));
    // A value nobody can list (a folder): nothing from us, so bash falls back to file names (-o default).
    expect(config).toEqual([]);
    // Every flag of every command is offered after the command.
    expect(perCommand).toHaveLength(tree.length);
    tree.forEach((sub, i) => {
      for (const f of sub.flags)
        for (const n of [f.long, f.short].filter(Boolean)) expect(perCommand[i], sub.name).toContain(n);
    });
  });

  it('zsh and fish: every command and flag appears in the form the shell reads', () => {
    const zsh = completionScript(program(), 'zsh');
    const fish = completionScript(program(), 'fish');
    expect(zsh.startsWith('#compdef docsync\n')).toBe(true);
    expect(zsh).toContain(`'(--format -o)'{--format,-o}'[output format]:value:(text json markdown)'`);
    for (const sub of commandTree(program()).subs) {
      expect(zsh).toMatch(new RegExp(`^ {4}'${sub.name}:`, 'm'));
      expect(zsh).toMatch(new RegExp(`^ {4}${sub.name}\\)$`, 'm'));
      expect(fish).toContain(`complete -c docsync -n __fish_use_subcommand -a ${sub.name} `);
      for (const f of sub.flags.filter((x) => x.long))
        expect(fish).toContain(`-n '__fish_seen_subcommand_from ${sub.name}' -l ${f.long!.slice(2)}`);
    }
    expect(fish).toContain(
      `complete -c docsync -n '__fish_seen_subcommand_from plan' -l format -s o -x -a 'text json markdown'`,
    );
  });

  it.runIf(has('zsh'))('zsh parses the script', () => {
    const r = spawnSync('zsh', ['-n'], { input: completionScript(program(), 'zsh'), encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it.runIf(has('fish'))("fish's own `complete -C` completes commands and -o values", () => {
    const file = join(mkdtempSync(join(tmpdir(), 'docsync-completion-')), 'docsync.fish');
    writeFileSync(file, completionScript(program(), 'fish'));
    // One fish for the three lines (a fish per line cost a process start each).
    const lines = ['docsync comp', 'docsync plan -o ', 'docsync completion '];
    const script = [`source ${file}`, ...lines.map((l) => `complete -C ${JSON.stringify(l)}; echo --end--`)];
    const answers: string[][] = [[]];
    for (const line of execFileSync('fish', ['--no-config', '-c', script.join('; ')], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean))
      if (line === '--end--') answers.push([]);
      else answers.at(-1)!.push(line.split('\t')[0]!);
    expect(answers.slice(0, 3)).toEqual([
      ['completion'],
      ['json', 'markdown', 'text'],
      ['bash', 'fish', 'zsh'],
    ]);
  });

  it('the CLI prints it; an unknown shell is refused with the choices', async () => {
    const ok = await runMain(['completion', 'bash']);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('complete -o default -F _docsync_completion docsync');
    const bad = await runMain(['completion', 'powershell']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(
      /value 'powershell' is invalid for argument 'shell'\. Allowed choices are bash, zsh, fish/,
    );
  });
});

describe('-o, --help examples, docsync version', () => {
  it('-o is an alias of --format on every command that has a format', () => {
    const withFormat = program().commands.filter((c) => c.options.some((o) => o.long === '--format'));
    expect(withFormat.map((c) => c.name())).toEqual(
      expect.arrayContaining(['plan', 'apply', 'drift', 'version']),
    );
    for (const cmd of withFormat) {
      const format = cmd.options.find((o) => o.long === '--format')!;
      expect(format.short, cmd.name()).toBe('-o');
    }
  });

  it('`-o json` gives the same JSON as `--format json`', async () => {
    const [short, long] = await Promise.all([
      runMain(['version', '-o', 'json']),
      runMain(['version', '--format', 'json']),
    ]);
    expect(short.code).toBe(0);
    expect(JSON.parse(short.stdout)).toEqual(JSON.parse(long.stdout));
    const bad = await runMain(['plan', '-o', 'yaml']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(`option '-o, --format <format>' argument 'yaml' is invalid`);
  });

  it('every command has an example in its --help, and each example runs that command', () => {
    for (const cmd of program().commands) {
      const examples = EXAMPLES[cmd.name()];
      expect(examples, cmd.name()).toBeDefined();
      for (const e of examples!) expect(e, cmd.name()).toMatch(new RegExp(`docsync ${cmd.name()}\\b`));
      let help = '';
      cmd.configureOutput({ writeOut: (s) => (help += s) });
      cmd.outputHelp();
      expect(help, cmd.name()).toMatch(/\nExamples?:\n {2}\$ /);
      for (const e of examples!) expect(help).toContain(`  $ ${e}`);
    }
  });

  it('version: the version, the commit of this checkout, the API flavor default and where it comes from', async () => {
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    const text = await runMain(['version'], { DOCSYNC_API_FLAVOR: undefined, DOCSYNC_API_URL: undefined });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^docsync 0\.1\.0\n/);
    expect(text.stdout).toContain(`commit:     ${head}\n`);
    expect(text.stdout).toMatch(/api flavor: current \(for https:\/\/api\.gitbook\.com: current for/);
    const json = JSON.parse(
      (await runMain(['version', '-o', 'json'], { DOCSYNC_API_URL: 'http://127.0.0.1:4010' })).stdout,
    );
    expect(json).toMatchObject({
      version: '0.1.0',
      commit: head,
      apiFlavor: 'seed',
      apiFlavorFrom: 'api-url',
    });
    const fromEnv = await runMain(['version'], { DOCSYNC_API_FLAVOR: 'seed' });
    expect(fromEnv.stdout).toContain('api flavor: seed (from DOCSYNC_API_FLAVOR;');
  });

  it('npm run build embeds the commit of this checkout; DOCSYNC_BUILD_COMMIT wins (the image has no .git)', async () => {
    const { currentCommit } = await import('../../scripts/build-info.mjs');
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    const saved = process.env['DOCSYNC_BUILD_COMMIT'];
    try {
      delete process.env['DOCSYNC_BUILD_COMMIT'];
      expect(currentCommit(ROOT)).toBe(head);
      // A folder inside some other repository is not a docsync checkout: no commit.
      expect(currentCommit(join(ROOT, 'src'))).toBeUndefined();
      process.env['DOCSYNC_BUILD_COMMIT'] = 'abcdef1234567';
      expect(currentCommit(ROOT)).toBe('abcdef1234567');
      process.env['DOCSYNC_BUILD_COMMIT'] = 'not a commit';
      expect(currentCommit(ROOT)).toBe(head);
    } finally {
      if (saved === undefined) delete process.env['DOCSYNC_BUILD_COMMIT'];
      else process.env['DOCSYNC_BUILD_COMMIT'] = saved;
    }
  });
});

describe('a reader that leaves early (`docsync --help | head`)', () => {
  /** Run the CLI with its stdout's reading end closed before it writes anything. */
  const withClosedStdout = (args: string[]) =>
    new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
      const child = spawnCli(args);
      child.stdout!.destroy();
      let stderr = '';
      child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stderr }));
      child.stdin!.end();
    });

  it("drops the rest of the output and exits with the command's own code, no EPIPE stack trace", async () => {
    const [help, valid, invalid] = await Promise.all([
      withClosedStdout(['--help']),
      withClosedStdout(['validate', '--config', join(ROOT, 'examples', 'config')]),
      withClosedStdout(['validate', '--config', join(ROOT, 'test', 'no-such-folder')]),
    ]);
    for (const r of [help, valid, invalid]) expect(r.stderr).not.toMatch(/EPIPE|Unhandled|at .*\.js:\d+/);
    expect(help.code).toBe(0);
    expect(valid.code).toBe(0);
    expect(invalid.code).toBe(1);
  });
});
