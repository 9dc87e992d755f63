/** Kinds of object a link can point to whose team `team.locate` finds (shared by the client's not-found page). */
export const LOCATABLE_KINDS = ['run', 'experiment', 'target', 'scenario', 'schedule'] as const;
export type LocatableKind = (typeof LOCATABLE_KINDS)[number];
