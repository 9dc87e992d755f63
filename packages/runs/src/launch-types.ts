/** What a launch of any kind (experiment, advisor) answers and records. */
export interface CiOrigin {
  commit?: string | null;
  branch?: string | null;
  buildUrl?: string | null;
}

/** Who and what started an experiment: a person, a schedule, a saved experiment, a CI build. */
export interface ExperimentOrigin {
  createdById?: string | null;
  scheduleId?: string | null;
  /** the saved experiment this one repeats (rerun, schedule, API by id) */
  sourceId?: string | null;
  /** where a CI-started experiment came from (checked by the REST contract and the CLI) */
  ci?: CiOrigin;
}

/** An origin as the experiment row's columns, each null when not given. */
export const originColumns = (o: ExperimentOrigin) => ({
  createdById: o.createdById ?? null,
  scheduleId: o.scheduleId ?? null,
  sourceId: o.sourceId ?? null,
  commit: o.ci?.commit ?? null,
  branch: o.ci?.branch ?? null,
  buildUrl: o.ci?.buildUrl ?? null,
});

export interface LaunchedExperiment {
  experimentId: string;
  /** In execution order; enqueue them in this order (jobId = runId). */
  runIds: string[];
  /**
   * The team's runs already queued before this launch: pass it to `enqueueRuns` as `backlog`, so a
   * team's own backlog lowers its new runs' priority and one team cannot starve the others.
   */
  backlog: number;
}
