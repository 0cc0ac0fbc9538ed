// Start bench/emulator-child.ts (the emulator in a process of its own, for the latency rows) and
// wait for its URL; `stop` closes its stdin and waits for it to exit.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export type EmulatorProcess = { url: string; stop: () => Promise<void> };

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
    stop: async () => {
      child.stdin.end();
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}
