import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { watch } from 'chokidar';
import { listConfigFiles } from '../config/config-folder.js';
import type { ConfigSource, Revision } from './types.js';

/**
 * A local folder, watched with chokidar (debounced). Its revision is a hash of the config files'
 * names and contents, so an unchanged folder is an unchanged revision.
 */
export class FolderSource implements ConfigSource {
  readonly kind = 'folder' as const;

  constructor(
    readonly configDir: string,
    private readonly debounceMs = 300,
  ) {}

  async refresh(): Promise<Revision> {
    const hash = createHash('sha256');
    for (const file of await listConfigFiles(this.configDir)) {
      hash.update(file);
      hash.update('\0');
      hash.update(await readFile(file));
      hash.update('\0');
    }
    return { id: hash.digest('hex').slice(0, 40), subject: `folder ${this.configDir}` };
  }

  async watch(onChange: () => void): Promise<() => Promise<void>> {
    let timer: NodeJS.Timeout | undefined;
    const watcher = watch(this.configDir, {
      ignoreInitial: true,
      awaitWriteFinish: { stabilityThreshold: 100, pollInterval: 50 },
    });
    watcher.on('all', () => {
      clearTimeout(timer);
      timer = setTimeout(onChange, this.debounceMs);
    });
    await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
    return async () => {
      clearTimeout(timer);
      await watcher.close();
    };
  }

  describe(): Record<string, string> {
    return { type: 'folder', path: this.configDir };
  }
}
