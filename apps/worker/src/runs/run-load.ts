import {
  generateScenario,
  requestTagName,
  scriptPlannedMs,
  type RunNetwork,
  type Threshold,
} from '@poolbench/scenarios';
import type { K6SandboxOptions } from '@poolbench/k6';
import type { RunPlan } from './run-plan';

/** Memory a team's own k6 script may use (its cgroup, k6 and its temp dir together). */
const SCRIPT_MEMORY_BYTES = 1024 * 2 ** 20;

/** What k6 runs for a plan: the script and its files, how long, what PoolBench then checks. */
export interface RunLoad {
  /** the script k6 runs (stored on the run and shown on its page) */
  script: string;
  files: Record<string, string>;
  estimatedDurationMs: number;
  /**
   * A team's script: the stop time its scenario declares. k6 is stopped then, whatever the script
   * still does (an endless teardown included), and killed a short grace later.
   */
  stopAtMs?: number;
  thresholds: Threshold[];
  /** request names in the scenario's order, for the summary's steps */
  stepOrder: string[];
  /** `-e` values besides BASE_URLS */
  env: Record<string, string>;
  /** a team's own script: run sandboxed, no secret headers */
  sandbox?: K6SandboxOptions;
}

export function runLoad(
  plan: RunPlan,
  target: { baseUrls: string[]; network: { k6Hosts?: Record<string, string> } },
  network: RunNetwork,
): RunLoad {
  if (plan.kind === 'template') {
    const generated = generateScenario(plan.scenario, network);
    return {
      script: generated.script,
      files: generated.files,
      estimatedDurationMs: generated.estimatedDurationMs,
      thresholds: plan.scenario.thresholds,
      stepOrder: plan.scenario.requests.map(requestTagName),
      env: {},
    };
  }
  const s = plan.script;
  return {
    script: s.source,
    files: s.files,
    estimatedDurationMs: scriptPlannedMs(s),
    stopAtMs: s.maxDurationMs,
    thresholds: s.thresholds,
    stepOrder: [],
    // the script's view of the target: BASE_URL for the usual single-URL script
    env: { BASE_URL: target.baseUrls[0] ?? '' },
    sandbox: {
      hosts: target.network.k6Hosts ?? {},
      memoryBytes: SCRIPT_MEMORY_BYTES,
    },
  };
}
