import { z } from 'zod';

/**
 * How an experiment's runs are ordered, identical to the RunOrder enum in the database
 * (`runOrder` in @poolbench/db makes the order):
 * - counterbalanced (the default): one round per repeat, every config once per round, their order
 *   turning from round to round (A B, B A, A B, …) so each config runs first, second, … equally
 *   often and an order effect (warm-up, a pause before a round) does not read as a difference;
 * - interleaved: every round in the same order (A B, A B, …);
 * - blocked: all repeats of a config together (A A B B).
 */
export const RUN_ORDERS = ['counterbalanced', 'interleaved', 'blocked'] as const;
export const RunOrderSchema = z.enum(RUN_ORDERS);
export type RunOrderName = z.infer<typeof RunOrderSchema>;
export const DEFAULT_RUN_ORDER: RunOrderName = 'counterbalanced';

/** How each order reads in forms and on an experiment's page. */
export const RUN_ORDER_LABELS: Record<RunOrderName, string> = {
  counterbalanced: 'Counterbalanced (A B, B A …)',
  interleaved: 'Interleaved (A B, A B …)',
  blocked: 'Blocked (A A, B B)',
};
