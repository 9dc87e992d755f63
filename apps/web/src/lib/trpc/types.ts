import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '~/server/api/root';

/** What each procedure returns, as the client receives it: components type their props from here, not from server modules. */
export type RouterOutputs = inferRouterOutputs<AppRouter>;

/** A comparison as the compare view and the share page show it. */
export type ComparisonView = Omit<
  RouterOutputs['compare']['get'],
  'savedBaseline' | 'availableBaselines'
>;
