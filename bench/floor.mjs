// The floor of a live read: the same list GETs `docsync plan` made (the file named by argv[2]:
// { origin, token, paths }), sent with bare undici (a keep-alive pool of 4 connections, 4 in
// flight) and each answer parsed with JSON.parse, nothing else. Run with `--import bench/usage.mjs`
// so its CPU and peak RSS are measured as the CLI's are. undici is loaded the way the CLI loads it
// (src/api/undici.ts: the pool and the request API, not the package index).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import process from 'node:process';

const require = createRequire(import.meta.url);
const Pool = require('undici/lib/dispatcher/pool.js');
const api = require('undici/lib/api/index.js');

const { origin, token, paths } = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const pool = new Pool(origin, { connections: 4, keepAliveTimeout: 4_000 });
const headers = { authorization: `Bearer ${token}`, accept: 'application/json' };
let next = 0;
let items = 0;
async function worker() {
  while (next < paths.length) {
    const path = paths[next++];
    const res = await api.request.call(pool, { origin, path, method: 'GET', headers });
    const body = JSON.parse(await res.body.text());
    if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode}`);
    items += body.items?.length ?? 0;
  }
}
await Promise.all([worker(), worker(), worker(), worker()]);
await pool.close();
process.stdout.write(JSON.stringify({ requests: paths.length, items }));
