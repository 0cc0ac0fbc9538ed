import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('../..', import.meta.url).pathname;

/** Every YAML file of the repository's configs, examples and test fixtures (good and bad). */
export function repositoryYamlFiles(): string[] {
  return ['config', 'examples', 'test/fixtures'].flatMap((dir) => yamlFiles(join(root, dir)));
}

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? yamlFiles(join(dir, e.name)) : /\.ya?ml$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}
