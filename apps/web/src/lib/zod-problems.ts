import type { z } from 'zod';

/** zod issues as { 'a.b.0': message }, the same paths the server reports. */
export function zodProblems(result: z.ZodSafeParseResult<unknown>): Record<string, string> {
  if (result.success) return {};
  const out: Record<string, string> = {};
  for (const i of result.error.issues) {
    const path = i.path.map(String).join('.');
    if (i.code === 'unrecognized_keys') continue;
    out[path] ??= i.message;
  }
  return out;
}
