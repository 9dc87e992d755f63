import type { Prisma } from '@poolbench/db';

/**
 * An experiment's pool configs and scenarios, each by id and name, in the experiment's order: the
 * rows and columns of its matrix, as the gates, the schedules and the hypotheses read them.
 */
export const EXPERIMENT_MATRIX_SELECT = {
  poolConfigs: {
    orderBy: { position: 'asc' },
    select: { poolConfig: { select: { id: true, name: true } } },
  },
  scenarios: {
    orderBy: { position: 'asc' },
    select: { scenario: { select: { id: true, name: true } } },
  },
} as const satisfies Prisma.ExperimentSelect;
