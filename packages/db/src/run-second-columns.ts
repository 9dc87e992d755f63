/**
 * RunSecond's histogram column for each k6 trend metric: the one map that every writer (the
 * worker's per-second rows, the generators' merge) and reader (summaries from stored seconds)
 * uses. HDR histograms, encoded as k6's output extension sends them.
 */
export const RUN_SECOND_HIST_COLUMNS = {
  http_req_duration: 'durationHist',
  http_req_waiting: 'waitingHist',
  http_req_connecting: 'connectingHist',
  http_req_tls_handshaking: 'tlsHist',
  http_req_blocked: 'blockedHist',
  iteration_duration: 'iterationHist',
} as const;
export type RunSecondHistMetric = keyof typeof RUN_SECOND_HIST_COLUMNS;
export type RunSecondHistColumn = (typeof RUN_SECOND_HIST_COLUMNS)[RunSecondHistMetric];

/** [metric, column] pairs, typed. */
export const runSecondHistEntries = () =>
  Object.entries(RUN_SECOND_HIST_COLUMNS) as [RunSecondHistMetric, RunSecondHistColumn][];
