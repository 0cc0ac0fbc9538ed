// Start bench/emulator-child.ts (the emulator in a process of its own, for the latency rows) and
// wait for its URL; `stop` closes its stdin and waits for it to exit. The emulator stands for a
// server on other machines: its process is given a higher scheduling priority than the client's
// (`EMULATOR_PRIORITY`, default -10; needs root or CAP_SYS_NICE, else it runs at the client's),
// so that its clock and its rate-limit count do not wait for a core the client holds (decision 43,
// "The emulator apart").
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export type EmulatorProcess = {
  url: string;
  /** Whether the emulator runs at a higher priority than this process (see above). */
  prioritized: boolean;
  stop: () => Promise<void>;
};

/** The emulator's process above the client's in the scheduler's order, where allowed. */
function prioritize(pid: number | undefined): boolean {
  const priority = Number(process.env.EMULATOR_PRIORITY ?? -10);
  if (pid === undefined || priority === 0) return false;
  try {
    setPriority(pid, priority);
    return true;
  } catch {
    return false;
  }
}

export async function startEmulatorProcess(
  dir: string,
  seed: unknown,
  faults: unknown,
): Promise<EmulatorProcess> {
  writeFileSync(join(dir, 'seed.json'), JSON.stringify(seed));
  writeFileSync(join(dir, 'faults.json'), JSON.stringify(faults));
  const child = spawn(
    process.execPath,
    [
      // `EMULATOR_CPU_PROF=<dir>`: a CPU profile of the emulator's process (for the latency trace).
      ...(process.env.EMULATOR_CPU_PROF
        ? ['--cpu-prof', `--cpu-prof-dir=${process.env.EMULATOR_CPU_PROF}`, '--cpu-prof-interval=200']
        : []),
      '--import',
      'tsx',
      fileURLToPath(new URL('./emulator-child.ts', import.meta.url)),
      join(dir, 'seed.json'),
      join(dir, 'faults.json'),
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const prioritized = prioritize(child.pid);
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(out.trim());
    });
    child.on('exit', (code) => reject(new Error(`emulator exited ${code}`)));
  });
  return {
    url,
    prioritized,
    stop: async () => {
      child.stdin.end();
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}
