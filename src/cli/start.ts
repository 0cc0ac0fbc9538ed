import './zod-settings.js'; // first: before anything loads zod
import { main } from './main.js';

/** The CLI's process: `docsync <argv>`, its exit code set when the command is done. */
export async function startCli(argv: string[]): Promise<void> {
  // A reader that leaves early (`docsync plan | head`) closes the pipe: the rest of the output is
  // dropped, and the command still runs to its end (an apply is not cut halfway) and exits with its
  // own code, instead of dying on an unhandled EPIPE with a stack trace.
  for (const stream of [process.stdout, process.stderr])
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
    });
  process.exitCode = await main(argv);
}
