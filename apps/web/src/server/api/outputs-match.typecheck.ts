import { expectTypeOf } from 'vitest';
import type { z } from 'zod';
import type { createApiToken } from '~/server/services/api-tokens/create-api-token';
import type { listApiTokens } from '~/server/services/api-tokens/list-api-tokens';
import type { revokeApiToken } from '~/server/services/api-tokens/revoke-api-token';
import type { setBaseline } from '~/server/services/baselines/set-baseline';
import type { listBaselines } from '~/server/services/baselines/list-baselines';
import type { deleteBaseline } from '~/server/services/baselines/delete-baseline';
import type { createShareLink } from '~/server/services/share-links/create-share-link';
import type { listShareLinks } from '~/server/services/share-links/list-share-links';
import type { revokeShareLink } from '~/server/services/share-links/revoke-share-link';
import type { listMyTeams } from '~/server/services/teams/list-my-teams';
import type { resolveTeam } from '~/server/services/teams/resolve-team';
import type { switchTeam } from '~/server/services/teams/switch-team';
import type { locateObject } from '~/server/services/teams/locate-object';
import type { createTeam } from '~/server/services/teams/create-team';
import type { listMembers } from '~/server/services/teams/list-members';
import type { changeMemberRole, removeMember } from '~/server/services/teams/change-member';
import type {
  acceptInvitation,
  createInvitation,
  describeInvitation,
  listInvitations,
  revokeInvitation,
} from '~/server/services/teams/invitations';
import type {
  addAllowedHost,
  listAllowedHosts,
  removeAllowedHost,
} from '~/server/services/teams/allowlist';
import type { getRetention, setRetention } from '~/server/services/teams/retention';
import type { archiveTarget, getTarget, listTargets } from '~/server/services/targets/read-targets';
import type { createTarget, updateTarget } from '~/server/services/targets/save-target';
import type { testTargetConnection } from '~/server/services/targets/test-connection';
import type {
  archiveScenario,
  createScenario,
  getScenario,
  listScenarios,
  updateScenario,
} from '~/server/services/scenarios/scenarios';
import type { applyPreset } from '~/server/services/scenarios/apply-preset';
import type { listPresetCards } from '~/server/services/scenarios/list-presets-view';
import type { listRuns } from '~/server/services/runs/list-runs';
import type { getRun } from '~/server/services/runs/get-run';
import type { cachedRunSeries } from '~/server/services/runs/cached-run-series';
import type { cancelRun } from '~/server/services/runs/cancel-run';
import type { updateRunNotes } from '~/server/services/runs/update-run-notes';
import type { sweepSteps } from '~/server/services/runs/sweep-steps';
import type { Comparison } from '~/server/services/compare/build-comparison';
import type { experimentPivot } from '~/server/services/compare/pivot';
import type { listCandidates } from '~/server/services/compare/list-candidates';
import type { cachedRepeatsNeeded } from '~/server/services/compare/cached-repeats-needed';
import type {
  getExperiment,
  listExperiments,
} from '~/server/services/experiments/read-experiments';
import type { estimateExperiment } from '~/server/services/experiments/estimate-experiment';
import type { startExperiment } from '~/server/services/experiments/start-experiment';
import type {
  createSchedule,
  deleteSchedule,
  listSchedules,
  runScheduleNow,
  setScheduleNotify,
  setSchedulePaused,
  updateSchedule,
} from '~/server/services/schedules/schedules';
import type { previewCron } from '~/lib/schemas/cron';
import type { SessionUser } from './context';
import type * as ApiToken from './routers/api-token.types';
import type * as Baseline from './routers/baseline.types';
import type * as ShareLink from './routers/share-link.types';
import type * as Team from './routers/team.types';
import type * as Target from './routers/target.types';
import type * as Scenario from './routers/scenario.types';
import type * as Run from './routers/run.types';
import type * as Compare from './routers/compare.types';
import type * as Experiment from './routers/experiment.types';
import type * as Hypothesis from './routers/hypothesis.types';
import type * as Trend from './routers/trend.types';
import type { trendCells, trendSeries } from '~/server/services/trends/trend-series';
import type { readHypotheses, setHypotheses } from '~/server/services/experiments/hypotheses';
import type * as Schedule from './routers/schedule.types';

/**
 * A z.object() output schema strips keys it does not name, so a schema that misses a field the
 * service returns drops it from the client without a sound. These checks say each schema's output
 * is exactly what its service returns: a field added to a service fails the typecheck until the
 * schema names it. They are types only: `tsc` (the typecheck phase) judges them, and the function
 * is never called, so no test runner counts them as tests.
 */
type Ret<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;
type Out<S extends z.ZodType> = z.output<S>;

export function outputSchemasMatchServices(): void {
  // apiToken
  {
    expectTypeOf<Ret<typeof listApiTokens>>().toEqualTypeOf<
      Out<typeof ApiToken.ApiTokenListSchema>
    >();
    expectTypeOf<Ret<typeof createApiToken>>().toEqualTypeOf<
      Out<typeof ApiToken.ApiTokenCreatedSchema>
    >();
    expectTypeOf<Ret<typeof revokeApiToken>>().toEqualTypeOf<
      Out<typeof ApiToken.ApiTokenRevokedSchema>
    >();
  }

  // baseline
  {
    expectTypeOf<Ret<typeof listBaselines>>().toEqualTypeOf<
      Out<typeof Baseline.BaselineListSchema>
    >();
    expectTypeOf<Ret<typeof setBaseline>>().toEqualTypeOf<Out<typeof Baseline.BaselineSetSchema>>();
    expectTypeOf<Ret<typeof deleteBaseline>>().toEqualTypeOf<
      Out<typeof Baseline.BaselineRemovedSchema>
    >();
  }

  // shareLink
  {
    expectTypeOf<Ret<typeof createShareLink>>().toEqualTypeOf<
      Out<typeof ShareLink.ShareLinkCreatedSchema>
    >();
    expectTypeOf<Ret<typeof listShareLinks>>().toEqualTypeOf<
      Out<typeof ShareLink.ShareLinkListSchema>
    >();
    expectTypeOf<Ret<typeof revokeShareLink>>().toEqualTypeOf<
      Out<typeof ShareLink.ShareLinkRevokedSchema>
    >();
  }

  // team
  {
    // team.me is put together in the router from these three and whether a password is set
    expectTypeOf<{
      user: SessionUser;
      teams: Ret<typeof listMyTeams>;
      active: Ret<typeof resolveTeam>;
      hasPassword: boolean;
    }>().toEqualTypeOf<Out<typeof Team.MeSchema>>();
    expectTypeOf<Ret<typeof locateObject>>().toEqualTypeOf<Out<typeof Team.LocatedSchema>>();
    expectTypeOf<Ret<typeof createTeam>>().toEqualTypeOf<Out<typeof Team.TeamCreatedSchema>>();
    expectTypeOf<Ret<typeof listMembers>>().toEqualTypeOf<Out<typeof Team.MembersSchema>>();
    expectTypeOf<Ret<typeof listInvitations>>().toEqualTypeOf<Out<typeof Team.InvitationsSchema>>();
    expectTypeOf<Ret<typeof createInvitation>>().toEqualTypeOf<
      Out<typeof Team.InvitationCreatedSchema>
    >();
    expectTypeOf<Ret<typeof describeInvitation>>().toEqualTypeOf<
      Out<typeof Team.InvitationSchema>
    >();
    expectTypeOf<Ret<typeof acceptInvitation>>().toEqualTypeOf<
      Out<typeof Team.InvitationAcceptedSchema>
    >();
    expectTypeOf<Ret<typeof listAllowedHosts>>().toEqualTypeOf<Out<typeof Team.AllowlistSchema>>();
    expectTypeOf<Ret<typeof addAllowedHost>>().toEqualTypeOf<Out<typeof Team.AllowedSchema>>();
    expectTypeOf<Ret<typeof getRetention>>().toEqualTypeOf<Out<typeof Team.RetentionSchema>>();
    expectTypeOf<Ret<typeof setRetention>>().toEqualTypeOf<Out<typeof Team.RetentionSchema>>();
    expectTypeOf<Ret<typeof switchTeam>>().toEqualTypeOf<Out<typeof Team.DoneSchema>>();
    // these two name the member they changed; the router revokes that user's cached auth and
    // answers nothing
    expectTypeOf<Ret<typeof changeMemberRole>>().toEqualTypeOf<{ userId: string }>();
    expectTypeOf<Ret<typeof removeMember>>().toEqualTypeOf<{ userId: string }>();
    expectTypeOf<Ret<typeof revokeInvitation>>().toEqualTypeOf<Out<typeof Team.DoneSchema>>();
    expectTypeOf<Ret<typeof removeAllowedHost>>().toEqualTypeOf<Out<typeof Team.DoneSchema>>();
  }

  // target
  {
    expectTypeOf<Ret<typeof listTargets>>().toEqualTypeOf<Out<typeof Target.TargetListSchema>>();
    expectTypeOf<Ret<typeof getTarget>>().toEqualTypeOf<Out<typeof Target.TargetViewSchema>>();
    expectTypeOf<Ret<typeof createTarget>>().toEqualTypeOf<Out<typeof Target.TargetViewSchema>>();
    expectTypeOf<Ret<typeof updateTarget>>().toEqualTypeOf<Out<typeof Target.TargetViewSchema>>();
    expectTypeOf<Ret<typeof archiveTarget>>().toEqualTypeOf<
      Out<typeof Target.TargetArchivedSchema>
    >();
    expectTypeOf<Ret<typeof testTargetConnection>>().toEqualTypeOf<
      Out<typeof Target.ConnectionTestSchema>
    >();
  }

  // scenario
  {
    expectTypeOf<Ret<typeof listScenarios>>().toEqualTypeOf<
      Out<typeof Scenario.ScenarioListSchema>
    >();
    expectTypeOf<Ret<typeof getScenario>>().toEqualTypeOf<
      Out<typeof Scenario.ScenarioViewSchema>
    >();
    expectTypeOf<Ret<typeof createScenario>>().toEqualTypeOf<
      Out<typeof Scenario.ScenarioViewSchema>
    >();
    expectTypeOf<Ret<typeof updateScenario>>().toEqualTypeOf<
      Out<typeof Scenario.ScenarioViewSchema>
    >();
    expectTypeOf<Ret<typeof archiveScenario>>().toEqualTypeOf<
      Out<typeof Scenario.ScenarioArchivedSchema>
    >();
    expectTypeOf<Ret<typeof listPresetCards>>().toEqualTypeOf<
      Out<typeof Scenario.PresetCardsSchema>
    >();
    expectTypeOf<Ret<typeof applyPreset>>().toEqualTypeOf<
      Out<typeof Scenario.PresetAppliedSchema>
    >();
  }

  // run
  {
    expectTypeOf<Ret<typeof listRuns>>().toEqualTypeOf<Out<typeof Run.RunListSchema>>();
    expectTypeOf<Ret<typeof getRun>>().toEqualTypeOf<Out<typeof Run.RunDetailSchema>>();
    expectTypeOf<Ret<typeof sweepSteps>>().toEqualTypeOf<Out<typeof Run.SweepStepsSchema>>();
    expectTypeOf<Ret<typeof cachedRunSeries>>().toEqualTypeOf<Out<typeof Run.RunSeriesSchema>>();
    expectTypeOf<Ret<typeof cancelRun>>().toEqualTypeOf<Out<typeof Run.RunCanceledSchema>>();
    expectTypeOf<Ret<typeof updateRunNotes>>().toEqualTypeOf<Out<typeof Run.RunNotesSavedSchema>>();
  }

  // compare
  {
    // compare.get adds the saved baseline it used and the ones it could offer to the comparison
    expectTypeOf<Comparison>().toEqualTypeOf<
      Omit<Out<typeof Compare.ComparisonViewSchema>, 'savedBaseline' | 'availableBaselines'>
    >();
    expectTypeOf<Ret<typeof experimentPivot>>().toEqualTypeOf<Out<typeof Compare.PivotSchema>>();
    expectTypeOf<Ret<typeof listCandidates>>().toEqualTypeOf<
      Out<typeof Compare.CandidatesSchema>
    >();
    expectTypeOf<Ret<typeof cachedRepeatsNeeded>>().toEqualTypeOf<
      Out<typeof Compare.RepeatsNeededSchema>
    >();
  }

  // experiment
  {
    expectTypeOf<Ret<typeof listExperiments>>().toEqualTypeOf<
      Out<typeof Experiment.ExperimentListSchema>
    >();
    expectTypeOf<Ret<typeof getExperiment>>().toEqualTypeOf<
      Out<typeof Experiment.ExperimentDetailSchema>
    >();
    expectTypeOf<Ret<typeof estimateExperiment>>().toEqualTypeOf<
      Out<typeof Experiment.ExperimentEstimateSchema>
    >();
    expectTypeOf<Ret<typeof startExperiment>>().toEqualTypeOf<
      Out<typeof Experiment.ExperimentLaunchedSchema>
    >();
    expectTypeOf<Ret<typeof createSchedule>>().toEqualTypeOf<
      Out<typeof Experiment.ScheduleCreatedSchema>
    >();
    expectTypeOf<Ret<typeof trendSeries>>().toEqualTypeOf<Out<typeof Trend.TrendSeriesSchema>>();
    expectTypeOf<Ret<typeof trendCells>>().toEqualTypeOf<Out<typeof Trend.TrendCellsSchema>>();
    expectTypeOf<Ret<typeof readHypotheses>>().toEqualTypeOf<
      Out<typeof Hypothesis.HypothesesAnswerSchema>
    >();
    expectTypeOf<Ret<typeof setHypotheses>>().toEqualTypeOf<
      Out<typeof Hypothesis.HypothesesAnswerSchema>
    >();
  }

  // schedule
  {
    expectTypeOf<Ret<typeof listSchedules>>().toEqualTypeOf<
      Out<typeof Schedule.ScheduleListSchema>
    >();
    expectTypeOf<ReturnType<typeof previewCron>>().toEqualTypeOf<
      Out<typeof Schedule.CronPreviewSchema>
    >();
    expectTypeOf<Ret<typeof setSchedulePaused>>().toEqualTypeOf<
      Out<typeof Schedule.ScheduleDoneSchema>
    >();
    expectTypeOf<Ret<typeof deleteSchedule>>().toEqualTypeOf<
      Out<typeof Schedule.ScheduleDoneSchema>
    >();
    expectTypeOf<Ret<typeof updateSchedule>>().toEqualTypeOf<
      Out<typeof Schedule.ScheduleDoneSchema>
    >();
    expectTypeOf<Ret<typeof setScheduleNotify>>().toEqualTypeOf<
      Out<typeof Schedule.ScheduleDoneSchema>
    >();
    expectTypeOf<Ret<typeof runScheduleNow>>().toEqualTypeOf<
      Out<typeof Schedule.ScheduleRunNowSchema>
    >();
  }
}
