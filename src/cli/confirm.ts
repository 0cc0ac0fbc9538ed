import { createInterface } from 'node:readline/promises';

/** Ask on the terminal; only "yes" (or "y") proceeds. */
export async function confirm(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = (await rl.question(`${question} Only 'yes' will be accepted: `)).trim().toLowerCase();
    return answer === 'yes' || answer === 'y';
  } finally {
    rl.close();
  }
}
