export interface K6ArgsInput {
  scriptPath: string;
  outputPath: string;
  env: Record<string, string>;
  blacklistIps: readonly string[];
  /**
   * Let the script see k6's process environment. The runner gives k6 a curated environment (PATH,
   * HOME, TMPDIR and the run's secret variables), so this exposes secrets only to the generated
   * script, and keeps them off the command line, which every local user can read in /proc.
   */
  includeProcessEnv?: boolean;
  /** verification only: keep k6's own summary and export it to this file */
  summaryExportPath?: string;
  /** verification only: every sample k6 emits, as its JSON output (one line each), to this file */
  rawSamplesPath?: string;
  /**
   * Distributed runs: this generator's part of the load, as k6 divides it (`0:1/3` of the
   * sequence `0,1/3,2/3,1`), so VUs and arrival rates split exactly across generators.
   */
  executionSegment?: { segment: string; sequence: string };
}

const ENV_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `k6 run` arguments with every hardening flag (see README "Hardening"). */
export function buildK6Args(input: K6ArgsInput): string[] {
  const args = [
    'run',
    // k6's REST API would let any local process stop or scale this run.
    '--address',
    '',
    `--include-system-env-vars=${input.includeProcessEnv === true}`,
    '--no-usage-report',
    '--no-thresholds',
    '--quiet',
    '--no-color',
    '--log-format=raw',
  ];
  if (input.summaryExportPath === undefined) {
    args.push('--summary-mode=disabled');
  } else {
    args.push(
      '--summary-mode=compact',
      `--summary-export=${input.summaryExportPath}`,
      '--summary-trend-stats=avg,min,med,max,p(90),p(95),p(99)',
    );
  }
  if (input.executionSegment) {
    args.push(
      '--execution-segment',
      input.executionSegment.segment,
      '--execution-segment-sequence',
      input.executionSegment.sequence,
    );
  }
  if (input.blacklistIps.length > 0) args.push('--blacklist-ip', input.blacklistIps.join(','));
  for (const [key, value] of Object.entries(input.env)) {
    if (!ENV_KEY.test(key))
      throw new Error(`invalid k6 env name ${JSON.stringify(key)}: use letters, digits and _`);
    args.push('-e', `${key}=${value}`);
  }
  if (input.rawSamplesPath !== undefined) args.push('--out', `json=${input.rawSamplesPath}`);
  args.push('--out', `poolbench=${input.outputPath}`, input.scriptPath);
  return args;
}
