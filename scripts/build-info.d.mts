/** The commit to embed: DOCSYNC_BUILD_COMMIT, else HEAD of `dir` when it is a git checkout itself, else undefined. */
export function currentCommit(dir?: string): string | undefined;
