#!/usr/bin/env bash
# The release workflow's steps that publish nothing, on a scratch clone of this checkout's HEAD
# tagged as package.json's version: the tag check, the release notes, the action bundle committed
# on the tag with both tags moved, and the npm package's file list. `act` is not needed.
#
#   bash scripts/release-dry-run.sh        exit 0: a release of this commit would go through
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/docsync-release-dry-run-XXXXXX")"
trap 'rm -rf "$work"' EXIT
head="$(git -C "$root" rev-parse HEAD)"
# --shared: the clone borrows the objects (no copy of the history); its own commits and tags stay in it.
git clone --quiet --shared --no-checkout "$root" "$work/repo"
cd "$work/repo"
git checkout --quiet --detach "$head"
ln -s "$root/node_modules" node_modules
tag="v$(node -p 'require("./package.json").version')"
source_commit="$(git rev-parse HEAD)"
git tag --force "$tag" >/dev/null # (re)made here: the clone may carry a released tag of that name

echo "== release notes of $tag (CHANGELOG.md)"
node scripts/changelog-section.mjs "$tag"

echo "== action bundle and tags"
bash scripts/release-action.sh "$tag" "$source_commit"
major="v${tag#v}"
major="${major%%.*}"
test "$(git rev-parse "$tag^{commit}")" = "$(git rev-parse HEAD)"
test "$(git rev-parse "$major^{commit}")" = "$(git rev-parse HEAD)"
test "$(git rev-parse HEAD^)" = "$source_commit"
test "$(git diff --name-only HEAD^ HEAD | tr '\n' ' ')" = "dist-action/THIRD-PARTY-NOTICES.txt dist-action/index.js "
git ls-files --error-unmatch dist-action/index.js dist-action/THIRD-PARTY-NOTICES.txt >/dev/null

echo "== npm package contents (npm pack --dry-run)"
npm pack --dry-run --ignore-scripts --json >"$work/pack.json" 2>/dev/null
node -e '
const [pack] = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
const files = pack.files.map((f) => f.path);
// What the CLI reads at run time (src/cli/demo.ts: the seed and config, relative to the package root).
const needs = ["package.json", "README.md", "examples/emulator-seed.yaml", "config/demo.yaml", "schema/docsync.schema.json"];
for (const need of needs)
  if (!files.includes(need)) { console.error(`error: the package lacks ${need}`); process.exit(1); }
if (files.some((f) => /^(dist-action|src|test|scripts)\//.test(f) || f.endsWith(".test.js")))
  { console.error("error: the package holds sources, tests, scripts or the action bundle"); process.exit(1); }
console.log(`${pack.name}@${pack.version}: ${files.length} files, ${needs.join(", ")} among them; no sources, tests, scripts or action bundle`);
' "$work/pack.json"

echo "dry run passed: would push $tag and $major to $(git rev-parse --short HEAD), attach dist-action/index.js and its notices to the release $tag, publish the image and docsync@${tag#v} to npm"
