import { createCallerFactory, router } from './trpc';
import { teamRouter } from './routers/team';
import { targetRouter } from './routers/target';
import { poolConfigRouter } from './routers/pool-config';
import { scenarioRouter } from './routers/scenario';
import { experimentRouter } from './routers/experiment';
import { scheduleRouter } from './routers/schedule';
import { runRouter } from './routers/run';
import { compareRouter } from './routers/compare';
import { baselineRouter } from './routers/baseline';
import { shareLinkRouter } from './routers/share-link';
import { apiTokenRouter } from './routers/api-token';
import { onboardingRouter } from './routers/onboarding';
import { seedsRouter } from './routers/seeds';
import { trendRouter } from './routers/trend';
import { advisorRouter } from './routers/advisor';
import { calibrationRouter } from './routers/calibration';
import { installationRouter } from './routers/installation';

export const appRouter = router({
  team: teamRouter,
  target: targetRouter,
  poolConfig: poolConfigRouter,
  scenario: scenarioRouter,
  experiment: experimentRouter,
  trend: trendRouter,
  schedule: scheduleRouter,
  run: runRouter,
  compare: compareRouter,
  baseline: baselineRouter,
  shareLink: shareLinkRouter,
  apiToken: apiTokenRouter,
  onboarding: onboardingRouter,
  seeds: seedsRouter,
  advisor: advisorRouter,
  calibration: calibrationRouter,
  installation: installationRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
