/** Human-readable, stable addresses of resources, as the plan shows them. */
export const address = {
  site: (org: string, title: string) => `${org}/sites/${title}`,
  section: (site: string, path: string) => `${site}/sections/${path}`,
  sectionGroup: (site: string, title: string) => `${site}/section-groups/${title}`,
  siteSpace: (parent: string, space: string) => `${parent}/spaces/${space}`,
  member: (org: string, user: string) => `${org}/members/${user}`,
};
