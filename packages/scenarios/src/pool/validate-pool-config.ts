import { flattenIssues, type ValidationProblem } from '../validate-scenario';
import { PoolConfigSchema } from './pool-config-schema';

/** Every problem of a pool config at once (dotted paths); an empty list means valid. */
export function validatePoolConfig(input: unknown): ValidationProblem[] {
  const r = PoolConfigSchema.safeParse(input);
  if (r.success) return [];
  const strategy = (input as { strategy?: unknown } | null)?.strategy;
  return flattenIssues(r.error.issues).map((p) =>
    /^params\.[^.]+$/.test(p.path) && p.message === 'is not a known field'
      ? { ...p, message: `is not a param of strategy ${String(strategy)}` }
      : p,
  );
}
