import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { exportOrganization } from '../export/to-config.js';
import { everything, readScoped } from '../live/read.js';
import { makeApi, type CommonOptions } from './context.js';
import { err, out } from './output.js';

/** `docsync export --org ID [--out DIR]`: live state as docsync YAML (reads only). */
export async function exportCommand(opts: CommonOptions & { org: string; out: string }): Promise<number> {
  const api = makeApi(opts);
  try {
    const first = await readScoped(api, opts.org, everything());
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
              settings: false,
              members: false,
              collections: false,
              openapi: false,
              saml: false,
              translations: false,
              teams: false,
              sites: false,
              customFields: false,
            })
          ).spaces
        : [];
    // The live model keeps only hashes of SAML certificates; export writes them out as files.
    const certificates = new Map(
      first.saml
        ? (await api.listSamlProviders(opts.org))
            .filter((p) => p.certificate)
            .map((p) => [p.id, p.certificate!])
        : [],
    );
    const schema =
      relative(opts.out, join(process.cwd(), 'schema', 'docsync.schema.json')) || 'docsync.schema.json';
    const result = exportOrganization(
      { ...first, spaces: spaces ?? [] },
      schema,
      certificates,
      opts.apiFlavor,
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
