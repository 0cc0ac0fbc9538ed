#!/usr/bin/env bash
# The release's action step (.github/workflows/release.yml), on the checkout of a release tag:
# build the action bundle from the tag's commit, commit it on top (main never tracks it), check
# that the committed bundle is what the sources build, and move the release tag and the major tag
# (v1.2.3 -> v1) to that commit, locally. Pushing the tags is the workflow's next step; the dry
# run (scripts/release-dry-run.sh) runs this in a scratch clone and pushes nothing.
#
#   bash scripts/release-action.sh TAG [SOURCE_COMMIT]
set -euo pipefail
tag="${1:?usage: release-action.sh vX.Y.Z [SOURCE_COMMIT]}"
source_commit="${2:-$(git rev-parse HEAD)}"
if [[ ! "$tag" =~ ^v([0-9]+)\.[0-9]+\.[0-9]+$ ]]; then
  echo "error: the tag must be vMAJOR.MINOR.PATCH, not '$tag'" >&2
  exit 1
fi
major="v${BASH_REMATCH[1]}"
version="v$(node -p 'require("./package.json").version')"
if [ "$version" != "$tag" ]; then
  echo "error: the tag $tag is not package.json's version ($version)" >&2
  exit 1
fi
node scripts/changelog-section.mjs "$tag" >/dev/null

node scripts/bundle-action.mjs --commit "$source_commit"
git add --force dist-action/index.js dist-action/THIRD-PARTY-NOTICES.txt
git -c user.name='github-actions[bot]' -c user.email='41898282+github-actions[bot]@users.noreply.github.com' \
  -c commit.gpgSign=false commit --quiet --no-verify -m "Action bundle of $tag (npm run bundle, built from $source_commit)"
node scripts/bundle-action.mjs --check
git -c tag.gpgSign=false tag --force "$tag" >/dev/null
git -c tag.gpgSign=false tag --force "$major" >/dev/null
echo "tagged $(git rev-parse --short HEAD) as $tag and $major (bundle built from $source_commit)"
if [ -n "${GITHUB_OUTPUT:-}" ]; then echo "major=$major" >>"$GITHUB_OUTPUT"; fi
