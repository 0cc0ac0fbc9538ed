import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { exportOrganization } from '../export/to-config.js';
import { readScoped } from '../live/read.js';
import { everything } from '../live/scope.js';
import { makeApi, makeLogger, type CommonOptions } from './context.js';
import { err, out } from './output.js';

/** `docsync export --org ID [--out DIR] [--force]`: live state as docsync YAML (reads only). */
export async function exportCommand(
  opts: CommonOptions & { org: string; out: string; force?: boolean },
): Promise<number> {
  makeLogger(opts, 'export');
  const existing = await readdir(opts.out).catch(() => [] as string[]);
  if (existing.length > 0 && !opts.force) {
    err(
      `error: ${opts.out} is not empty; export writes a whole configuration and would mix with what is there. Use an empty folder, or --force to write into it anyway`,
    );
    return 1;
  }
  const api = makeApi(opts);
  try {
    // The live model keeps no secrets (certificates are hashes): the kinds that export some pick
    // them from the same read.
    const secrets = new Map<string, string>();
    const first = await readScoped(api, opts.org, everything(), { secrets });
    const spaceIds = [
      ...new Set(
        (first.sites ?? []).flatMap((s) =>
          [...(s.sections ?? []).flatMap((x) => x.spaces), ...(s.spaces ?? [])].map((ss) => ss.space),
        ),
      ),
    ].sort();
    const spaces =
      spaceIds.length > 0
        ? (
            await readScoped(api, opts.org, {
              ...everything(spaceIds),
              objects: [],
              collections: false,
              lists: [],
            })
          ).spaces
        : [];
    // The JSON Schema is written with the files, so the `$schema` line resolves wherever they go.
    const result = exportOrganization(
      { ...first, spaces: spaces ?? [] },
      undefined,
      secrets,
      api.capabilities,
    );
    for (const file of result.files) {
      const target = join(opts.out, file.path);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, file.text);
    }
    for (const w of result.warnings) err(`warning: ${w}`);
    out(`exported ${opts.org} to ${opts.out}: ${result.files.map((f) => f.path).join(', ')}`);
    return 0;
  } finally {
    await api.close();
  }
}
