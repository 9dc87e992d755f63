import type { z } from 'zod';
import { AppError, prefixProblems } from '@poolbench/contracts';
import { ScenarioSchema, type Scenario } from './scenario-schema';

export interface ValidationProblem {
  /** dotted field path, e.g. `requests.0.query.ms.randomInt.min`; '' for the whole input */
  path: string;
  message: string;
}

/**
 * zod issues -> problems with dotted field paths, unknown keys reported under their own path;
 * the same message twice at one field (two checks saying the same thing) is listed once.
 */
export function flattenIssues(
  issues: readonly z.core.$ZodIssue[],
  prefix: readonly PropertyKey[] = [],
): ValidationProblem[] {
  const out: ValidationProblem[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...issue.path].map(String);
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys)
        out.push({ path: [...path, key].join('.'), message: 'is not a known field' });
    } else {
      const p = path.join('.');
      if (!out.some((o) => o.path === p && o.message === issue.message))
        out.push({ path: p, message: issue.message });
    }
  }
  return out;
}

/** Every problem of a scenario at once; an empty list means valid. */
export function validateScenario(input: unknown): ValidationProblem[] {
  const r = ScenarioSchema.safeParse(input);
  return r.success ? [] : flattenIssues(r.error.issues);
}

/** A scenario's problems; `prefix` is the request field that holds the scenario (paths are full request paths). */
export class ScenarioValidationError extends AppError<'validation_failed'> {
  constructor(problems: ValidationProblem[], prefix = '') {
    super(
      'validation_failed',
      `invalid scenario: ${problems.map((p) => `${p.path || '(root)'}: ${p.message}`).join('; ')}`,
      { problems: prefixProblems(problems, prefix) },
    );
    this.name = 'ScenarioValidationError';
  }
}

/** Parses a scenario; `prefix` names the request field it came from, so problems point at it. */
export function parseScenario(input: unknown, prefix = ''): Scenario {
  const r = ScenarioSchema.safeParse(input);
  if (!r.success) throw new ScenarioValidationError(flattenIssues(r.error.issues), prefix);
  return r.data;
}
