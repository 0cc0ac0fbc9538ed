// The emulator in a process of its own (for the latency rows: an API that does not share the
// client's thread). `tsx bench/emulator-child.ts <seed.json> <faults.json>`: prints its URL, then
// serves until stdin closes.
import { readFileSync } from 'node:fs';
import { startEmulator } from '../src/emulator/server.js';

const emu = await startEmulator({
  token: 'bench-token',
  seed: JSON.parse(readFileSync(process.argv[2]!, 'utf8')),
});
emu.setFaults(JSON.parse(readFileSync(process.argv[3]!, 'utf8')));
process.stdout.write(`${emu.url}\n`);
process.stdin.resume();
process.stdin.on('end', () => void emu.close().then(() => process.exit(0)));
