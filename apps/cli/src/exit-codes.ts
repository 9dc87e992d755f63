export const EXIT = { pass: 0, failed: 1, usage: 2, infra: 3 } as const;

export class UsageError extends Error {
  override name = 'UsageError';
}
