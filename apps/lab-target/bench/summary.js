/* global __ENV */
// Shared by the bench scripts: percentiles the tables need, and the summary written as
// JSON to SUMMARY_FILE for bench/summarize.mjs (no stdout summary, the runner prints its own).
export const summaryTrendStats = ['avg', 'med', 'p(95)', 'p(99)', 'max'];

export function writeSummary(data) {
  return { [__ENV.SUMMARY_FILE]: JSON.stringify(data) };
}
