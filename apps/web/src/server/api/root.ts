import { createCallerFactory, router } from './trpc';
import { teamRouter } from './routers/team';
import { targetRouter } from './routers/target';
import { poolConfigRouter } from './routers/pool-config';
import { scenarioRouter } from './routers/scenario';
import { experimentRouter } from './routers/experiment';
import { scheduleRouter } from './routers/schedule';
import { runRouter } from './routers/run';

export const appRouter = router({
  team: teamRouter,
  target: targetRouter,
  poolConfig: poolConfigRouter,
  scenario: scenarioRouter,
  experiment: experimentRouter,
  schedule: scheduleRouter,
  run: runRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
