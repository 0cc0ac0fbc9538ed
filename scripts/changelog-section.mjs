// The release notes of one version: its section of CHANGELOG.md (Keep a Changelog), without the
// heading. The release workflow passes its tag.
//
//   node scripts/changelog-section.mjs v1.2.3 [CHANGELOG.md]    exit 1: no such section, or empty
import { readFileSync } from 'node:fs';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

/** The body of `## [VERSION]` (a leading `v` of the tag is dropped); undefined when absent. */
export function changelogSection(text, tag) {
  const version = tag.replace(/^v/, '');
  const lines = text.split(/\r?\n/);
  const heading = (l) => /^## \[/.test(l);
  const start = lines.findIndex((l) => heading(l) && l.startsWith(`## [${version}]`));
  if (start < 0) return undefined;
  const rest = lines.slice(start + 1);
  const end = rest.findIndex((l) => heading(l) || /^\[[^\]]+\]: /.test(l));
  return (end < 0 ? rest : rest.slice(0, end)).join('\n').trim();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [tag, file = 'CHANGELOG.md'] = process.argv.slice(2);
  if (!tag || !/^v?\d+\.\d+\.\d+([-+][\w.-]+)?$/.test(tag)) {
    process.stderr.write('usage: node scripts/changelog-section.mjs vX.Y.Z [CHANGELOG.md]\n');
    process.exit(1);
  }
  const section = changelogSection(readFileSync(file, 'utf8'), tag);
  if (!section) {
    process.stderr.write(`error: ${file} has no section "## [${tag.replace(/^v/, '')}]" with notes\n`);
    process.exit(1);
  }
  process.stdout.write(`${section}\n`);
}
