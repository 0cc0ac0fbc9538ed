/** Whether dist/ is at least as new as everything it is built from. */
export function distIsCurrent(root: string): boolean;
