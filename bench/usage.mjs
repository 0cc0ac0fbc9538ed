// Preloaded into the measured CLI (`node --import`): at exit, writes the process's own resource
// usage (CPU user + system, peak RSS) to the file named by DOCSYNC_BENCH_USAGE.
import { writeFileSync } from 'node:fs';
import process from 'node:process';

const file = process.env.DOCSYNC_BENCH_USAGE;
if (file)
  process.on('exit', () => {
    const u = process.resourceUsage();
    writeFileSync(
      file,
      JSON.stringify({ userMs: u.userCPUTime / 1000, systemMs: u.systemCPUTime / 1000, maxRssKb: u.maxRSS }),
    );
  });
