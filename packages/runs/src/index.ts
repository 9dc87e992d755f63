/**
 * @poolbench/runs: the run lifecycle. Every change of a run's or an experiment's status happens in
 * this package (a test keeps it so): launch + enqueue, claim, running, heartbeat, finish, cancel,
 * abort of stale runs, and the experiment's status refreshed in the same transaction.
 */
export {
  MAX_LOAD_GENERATORS,
  launchExperiment,
  relaunchExperiment,
  targetSnapshot,
  type CiOrigin,
  type LaunchExperimentInput,
  type LaunchedExperiment,
} from './launch-experiment';
export {
  launchAndEnqueue,
  relaunchAndEnqueue,
  enqueueOrDefer,
  type QueuedLaunch,
} from './launch-and-enqueue';
export {
  claimRun,
  markRunning,
  heartbeatRun,
  finishRun,
  type FinishData,
  type TerminalStatus,
} from './run-transitions';
export { cancelRun, type CancelOutcome } from './cancel-run';
export { liveTarget } from './live-target';
export {
  abortStaleRuns,
  requeueOrphanedRuns,
  type FinalizeStored,
  type StoredFinal,
} from './stale-runs';
export { startLifecycleSweeper, type SweeperOptions } from './sweeper';
export {
  experimentStatusFromCounts,
  lockExperiment,
  refreshExperimentStatus,
} from './experiment-status';
export { finalizeFromStored } from './finalize-from-stored';
export {
  runHistograms,
  clearHistogramCache,
  type HistogramColumn,
} from './summaries/run-histograms';
export { windowSummaries } from './summaries/window-summaries';
export {
  decideExperimentHypotheses,
  decideOverdueHypotheses,
} from './hypotheses/decide-hypotheses';
export { replaceHypotheses, PRE_REGISTERED_MESSAGE } from './hypotheses/replace-hypotheses';
export { hypothesisRows, hypothesesOf } from './hypotheses/create-hypotheses';
export { extendExperiment, MAX_REPEATS } from './extend-experiment';
export * from './segments/segment-transitions';
export {
  closedSecondsBefore,
  mergeSecondRows,
  mergeSegmentSeconds,
  segmentKey,
} from './segments/merge-segment-seconds';
export {
  launchSeeds,
  reproductionOf,
  seedPresets,
  SEEDS_PREFIX,
  type LaunchedSeed,
  type SeedsOptions,
} from './seeds/launch-seeds';
export {
  seedResults,
  type SeedClaimResult,
  type SeedExperimentResult,
  type SeedReproduction,
} from './seeds/seed-results';
export {
  replaceSeedsResults,
  seedsMarkdown,
  SEEDS_RESULTS_END,
  SEEDS_RESULTS_START,
} from './seeds/seeds-markdown';
export {
  decideScheduleOutcome,
  decideOverdueScheduleOutcomes,
  type ScheduleOutcome,
} from './schedules/schedule-outcome';
export { launchFiring } from './schedules/launch-firing';
export { baselineForCell, type BaselineOwner } from './schedules/baseline-for-cell';
export { runSecondRow, type RunSecondParts } from './segments/run-second-row';
export {
  RUN_TRANSITIONS,
  ACTIVE_RUN_STATUSES,
  canTransition,
  fromStatuses,
  toStatus,
  type RunTransition,
} from './run-status-table';
export {
  FLEET_LIMIT_DEFAULTS,
  onlineWorkers,
  plannedLoadMs,
  queuedLoad,
  teamFleetLimits,
  WORKER_ONLINE_WITHIN_MS,
} from './fleet-limits';
export { cancelExperiment, type ExperimentCancelOutcome } from './cancel-experiment';
export {
  continueSequential,
  DEFAULT_SEQUENTIAL_METRICS,
  type SequentialContinuation,
} from './sequential/continue-sequential';
export { launchAdvisor, type LaunchAdvisorInput } from './advisor/launch-advisor';
export {
  continueAdvisor,
  continueOverdueAdvisors,
  type AdvisorContinuation,
} from './advisor/continue-advisor';
export { settingParams, settingName } from './advisor/advisor-runs';
export { adviseSeed } from './seeds/advise-seed';
export {
  environmentInsightInput,
  insightInputOf,
  STORED_INSIGHT_SELECT,
  storedRunInsights,
  type InsightEnvironment,
  type SnapshotInsightInput,
  type StoredInsightRun,
} from './insights/insight-input';
export { runValidityOf, splitValidRuns, type ValidityRun } from './insights/run-validity-of';
export {
  CALIBRATION_RUNS_PER_SIDE,
  calibrationSides,
  comparisonNoiseFloors,
  latestNoiseFloors,
  launchCalibration,
  NOISE_FLOOR_FINGERPRINT,
  NOISE_FLOOR_MAX_AGE_DAYS,
  noiseFloorFits,
  noiseFloorKey,
  noiseFloorNote,
  recordNoiseFloor,
  recordOverdueNoiseFloors,
  type LaunchCalibrationInput,
  type StoredNoiseFloor,
} from './calibration/noise-floor';
export {
  assertScriptScenariosAllowed,
  scriptScenariosAllowed,
  SCRIPTS_OFF_MESSAGE,
} from './script-policy';
export {
  cellHistory,
  firingOf,
  HISTORY_LIMIT,
  type CellFiring,
  type CellRef,
} from './history/cell-history';
export { historyChangePoints } from './history/history-change-points';
export { changePointsNewAt } from './history/new-change-points';
export { seed } from './seed/seed';
export { EXPERIMENT_MATRIX_SELECT } from './experiment-matrix';
