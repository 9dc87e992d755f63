import { startCiAdvisor } from '~/server/services/ci/start-ci-advisor';
import { op, type Operation } from '../operation';
import { StartAdvisorSchema } from './advisor-requests';
import { ExperimentSchema, launchedView } from './experiments';

/** The pool-size advisor: an experiment that searches a pool size. */
export const ADVISOR_OPERATIONS: Operation[] = [
  op({
    method: 'POST',
    path: '/advisors',
    operationId: 'startAdvisor',
    scope: 'runs:write',
    idempotent: true,
    status: 201,
    summary: 'Start the pool-size advisor',
    description:
      "Searches the pool config's max pool size over [min, max] for the smallest setting that meets an SLO at the scenario's arrival rate (or the highest throughput), by experiment: a coarse pass, then refinement and repeats where neighbours are close, within `budgetRuns` (docs/advisor.md). Answers the advisor's experiment; poll `GET /experiments/{id}` until `finished`, then read `advisor.state`.",
    body: StartAdvisorSchema,
    bodyName: 'StartAdvisor',
    response: ExperimentSchema,
    responseName: 'Experiment',
    handle: async ({ deps, principal, body }) => {
      const launched = await startCiAdvisor(
        { db: deps.db, queue: deps.queue() },
        { teamId: principal.teamId, userId: principal.createdById, body },
      );
      return launchedView(deps, principal.teamId, launched);
    },
  }),
];
