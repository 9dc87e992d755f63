/** What a launch of any kind (experiment, advisor) answers and records. */
export interface CiOrigin {
  commit?: string | null;
  branch?: string | null;
  buildUrl?: string | null;
}

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
