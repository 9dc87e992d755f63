import { RUN_METRIC_KEYS, type RunMetricKey } from '@poolbench/contracts/run-metric-keys';

export const HYPOTHESIS_METRIC_KEYS = RUN_METRIC_KEYS;
export type HypothesisMetric = RunMetricKey;

/**
 * How a hypothesis names each run metric, and which way is better. The same labels and directions
 * as `RUN_METRICS` in @poolbench/stats (a test keeps them equal); repeated here because this
 * package is imported by the browser form and must not carry the statistics.
 */
export const HYPOTHESIS_METRICS: Record<
  HypothesisMetric,
  { label: string; noun: string; higherIsBetter: boolean; unit: string }
> = {
  rps: { label: 'Throughput', noun: 'throughput', higherIsBetter: true, unit: 'req/s' },
  p50Ms: { label: 'Latency p50', noun: 'p50 latency', higherIsBetter: false, unit: 'ms' },
  p95Ms: { label: 'Latency p95', noun: 'p95 latency', higherIsBetter: false, unit: 'ms' },
  p99Ms: { label: 'Latency p99', noun: 'p99 latency', higherIsBetter: false, unit: 'ms' },
  maxMs: { label: 'Latency max', noun: 'max latency', higherIsBetter: false, unit: 'ms' },
  errorRate: { label: 'Error rate', noun: 'error rate', higherIsBetter: false, unit: '%' },
  checkPassRate: {
    label: 'Check pass rate',
    noun: 'check pass rate',
    higherIsBetter: true,
    unit: '%',
  },
  connectP95Ms: {
    label: 'Connection set-up p95',
    noun: 'connection set-up p95',
    higherIsBetter: false,
    unit: 'ms',
  },
  cpuMeanPercent: {
    label: 'Target CPU mean',
    noun: 'mean target CPU',
    higherIsBetter: false,
    unit: '%',
  },
  cpuPeakPercent: {
    label: 'Target CPU peak',
    noun: 'peak target CPU',
    higherIsBetter: false,
    unit: '%',
  },
  rssMeanBytes: {
    label: 'Target RSS mean',
    noun: 'mean target RSS',
    higherIsBetter: false,
    unit: 'bytes',
  },
  rssPeakBytes: {
    label: 'Target RSS peak',
    noun: 'peak target RSS',
    higherIsBetter: false,
    unit: 'bytes',
  },
  poolWaitMsMean: {
    label: 'Pool wait mean',
    noun: 'mean pool wait',
    higherIsBetter: false,
    unit: 'ms',
  },
};
