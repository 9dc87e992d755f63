import type { z } from 'zod';

/**
 * zod skips object-level refinements once any field has an issue; validateScenario must list
 * every problem at once, so cross-field checks run whenever the fields they read are numbers.
 */
export function whenNumbers(...keys: string[]) {
  return (payload: z.core.ParsePayload): boolean => {
    const value = payload.value as Record<string, unknown> | null | undefined;
    if (typeof value !== 'object' || value === null) return false;
    return keys.every((k) => typeof value[k] === 'number' && Number.isFinite(value[k]));
  };
}
