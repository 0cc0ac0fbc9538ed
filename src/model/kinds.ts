export type ChangeAction = 'create' | 'update' | 'delete' | 'move';

export const visibilities = ['public', 'unlisted', 'share-link', 'visitor-auth'] as const;
export type Visibility = (typeof visibilities)[number];

export const agentsContexts = ['included', 'excluded'] as const;
export type AgentsContext = (typeof agentsContexts)[number];

export const teamRoles = ['owner', 'member'] as const;
export type TeamRole = (typeof teamRoles)[number];

/** A custom field's value in a space (the emulator keeps them too). */
export type CustomFieldValue = string | number | boolean | string[] | null;

export const memberRoles = ['admin', 'create', 'review', 'edit', 'comment', 'read'] as const;
export type MemberRole = (typeof memberRoles)[number];

/** `inherit` exists in the current API only. */
export type DefaultLevel = MemberRole | 'inherit' | null;

/** Which version of the API docsync talks to: api.md (`seed`) or today's service (`current`). */
export type ApiFlavor = 'seed' | 'current';
