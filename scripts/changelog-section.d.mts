/** The body of `## [VERSION]` in a Keep a Changelog text (a leading `v` of the tag is dropped); undefined when absent. */
export function changelogSection(text: string, tag: string): string | undefined;
