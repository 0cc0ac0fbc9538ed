type Path = (string | number)[];

/** What the tree's config checks may report, in one organization's files (`F`: a file). */
type TreeChecks<F> = {
  unique: (what: string) => (identity: string, file: F, path: Path) => void;
  report: (file: F, path: Path, message: string) => void;
};

/** The tree's part of one config file. */
type TreeConfig = {
  collections?: { title: string; id?: string; parent?: string | null }[];
  spaces?: { id: string; parent?: string | null }[];
};

/**
 * Checks of the tree across an organization's files: each collection and space once, and parents
 * that are declared and form no cycle (`parents` after every file was `declare`d).
 */
export function treeChecks<F>(on: TreeChecks<F>) {
  const titles = on.unique('collection');
  const ids = on.unique('collection id');
  const spaces = on.unique('space');
  const declared = new Map<string, string | null | undefined>();
  const parentProblem = (parent: string | null | undefined, self?: string): string | undefined => {
    if (parent === null || parent === undefined) return undefined;
    if (!declared.has(parent)) return `no collection titled "${parent}" is declared in collections`;
    const seen = new Set<string>(self ? [self] : []);
    for (let p: string | null | undefined = parent; p; p = declared.get(p)) {
      if (seen.has(p)) return `collection parents form a cycle through "${p}"`;
      seen.add(p);
    }
    return undefined;
  };
  return {
    declare: (file: F, config: TreeConfig) =>
      config.collections?.forEach((c, i) => {
        if (c.id) ids(c.id, file, ['collections', i, 'id']);
        titles(c.title, file, ['collections', i, 'title']);
        declared.set(c.title, c.parent);
      }),
    parents: (file: F, config: TreeConfig) => {
      config.collections?.forEach((c, i) => {
        const problem = parentProblem(c.parent, c.title);
        if (problem) on.report(file, ['collections', i, 'parent'], problem);
      });
      config.spaces?.forEach((s, i) => {
        const problem = parentProblem(s.parent);
        if (problem) on.report(file, ['spaces', i, 'parent'], problem);
      });
    },
    space: (file: F, id: string, i: number) => spaces(id, file, ['spaces', i, 'id']),
  };
}
