export {
  runK6,
  type K6EndReason,
  type K6RunResult,
  type K6SubMetric,
  type RunK6Options,
} from './run-k6';
export {
  SandboxUnavailableError,
  sandboxK6,
  type SandboxLimits,
  type SandboxReport,
  type SandboxSpec,
  type SandboxedCommand,
} from './sandbox';
export {
  validateUserScript,
  type K6SandboxOptions,
  type UserScriptValidation,
} from './user-script';
export { defaultK6Bin, K6BinaryError, resolveK6Bin } from './k6-binary';
export { buildK6Args } from './k6-args';
export {
  TREND_METRICS,
  parseOutputLine,
  type EndLine,
  type K6Counters,
  type SecondLine,
  type TrendMetric,
} from './ndjson-line';
export { SummaryAccumulator, type K6Second, type K6Summary } from './summary-accumulator';
export { thresholdContextFromSummary } from './threshold-context';
export { dieWithParent } from './parent-death';
export {
  allowedCpus,
  findTaskset,
  formatCpuList,
  onCpus,
  parseCpuList,
  TASKSET,
} from './cpu-affinity';
