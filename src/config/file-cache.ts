import { createHash } from 'node:crypto';
import type { ConfigIssue } from './issues.js';
import type { ConfigFile } from './schema.js';
import type { YamlFile } from './yaml-file.js';

/** What one file gives on its own: parsed and validated, or its problems. */
/**
 * `base`: a file without `organization`, read only when a file extends it; its issues as an
 * organization's file, reported when none does.
 */
export type FileResult =
  { yaml: YamlFile; config: ConfigFile; base?: ConfigIssue[] } | { issues: ConfigIssue[] };

/**
 * Parsed and validated files of earlier loads, keyed by the name shown in issues and a hash of the
 * content: a daemon that reloads after one file changed parses only that file again. Checks across
 * files (duplicates, references) and normalization still run on every load; they are cheap.
 */
export class ConfigFileCache {
  private entries = new Map<string, { hash: string; result: FileResult }>();
  hits = 0;
  misses = 0;

  /** The file's result, from the cache when its content is unchanged. */
  get(file: string, bytes: Buffer, compute: () => FileResult): FileResult {
    const hash = createHash('sha256').update(bytes).digest('base64');
    const cached = this.entries.get(file);
    if (cached && cached.hash === hash) {
      this.hits += 1;
      return cached.result;
    }
    this.misses += 1;
    const result = compute();
    this.entries.set(file, { hash, result });
    return result;
  }

  /** Forget files that are no longer part of the config. */
  keepOnly(files: Iterable<string>): void {
    const keep = new Set(files);
    for (const file of this.entries.keys()) if (!keep.has(file)) this.entries.delete(file);
  }
}
