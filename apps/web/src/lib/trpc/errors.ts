import type { ValidationProblem } from '@poolbench/scenarios';

interface TrpcLikeError {
  message?: string;
  data?: { code?: string; problems?: ValidationProblem[] | null } | null;
}

/** Field problems a mutation came back with (same shape as validateScenario's), keyed by path. */
export function problemsOf(err: unknown): Record<string, string> {
  const problems = (err as TrpcLikeError | null)?.data?.problems ?? [];
  return Object.fromEntries(problems.map((p) => [p.path, p.message]));
}

/** One sentence for a toast/alert; validation errors point at the fields instead. */
export function messageOf(err: unknown): string {
  const e = err as TrpcLikeError | null;
  if (!e) return 'Something went wrong.';
  if (e.data?.problems?.length) return 'Some fields need attention (see below).';
  if (e.data?.code === 'UNAUTHORIZED') return 'Your session has ended. Sign in again.';
  if (e.data?.code === 'FORBIDDEN') return e.message ?? 'Your role does not allow this.';
  return e.message ?? 'Something went wrong.';
}

export const codeOf = (err: unknown) => (err as TrpcLikeError | null)?.data?.code;
