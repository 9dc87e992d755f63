import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { buildK6Args } from './k6-args';
import { dieWithParent } from './parent-death';
import { childEnv } from './child-env';
import { onCpus } from './cpu-affinity';
import { K6BinaryError, assertExecutable, resolveK6Bin } from './k6-binary';
import { parseOutputLine, type EndLine } from './ndjson-line';
import { SummaryAccumulator, type K6Second, type K6Summary } from './summary-accumulator';
import { TailBuffer } from './tail-buffer';
import {
  decodeHistogram,
  histogramStatsMs,
  type HdrStatsMs,
  type RunSubMetric,
} from '@poolbench/stats';
import { scriptFileNameProblem } from '@poolbench/scenarios';
import {
  SANDBOX_INPUT,
  limitMessages,
  sandboxTempDir,
  type SandboxReport,
  type SandboxedCommand,
} from './sandbox';
import {
  ARCHIVE_FILE,
  USER_SCRIPT_FILE,
  checkSandboxedRun,
  enforcedRunFlags,
  prepareSandboxedRun,
  type K6SandboxOptions,
  type SandboxedRun,
} from './user-script';

export type K6EndReason = 'completed' | 'aborted' | 'timed_out' | 'k6_error';

export interface RunK6Options {
  /** k6 script source (ESM); written to a private temp file that is removed afterwards */
  script: string;
  /**
   * Files the script opens by relative path (`open('./data.json')`), written beside it in the
   * same private dir and removed with it. Names: a plain file name, no directories.
   */
  files?: Record<string, string | Uint8Array>;
  /** passed as `-e KEY=VALUE` (the script's __ENV); the process environment is never exposed */
  env?: Record<string, string>;
  /**
   * Secret values for the script (e.g. a target's auth headers), handed over in k6's process
   * environment instead of `-e`, so they never appear in the process list. Names must not start
   * with K6_ (k6 would read them as configuration).
   */
  secretEnv?: Record<string, string>;
  /** CIDRs k6 must refuse to connect to (`--blacklist-ip`) */
  blacklistIps?: readonly string[];
  /** k6 build with the poolbench output; default $POOLBENCH_K6_BIN, else packages/k6/bin/k6 */
  k6Bin?: string;
  /** abort: k6 gets SIGINT (graceful stop), then SIGKILL after stopGraceMs; partial data is kept */
  signal?: AbortSignal;
  /** like abort, with end reason timed_out */
  timeoutMs?: number;
  /** time between SIGINT and SIGKILL; default 10 000 */
  stopGraceMs?: number;
  /** called for every closed second, in order; a returned promise is awaited before the next call */
  onSecond?: (second: K6Second) => void | Promise<void>;
  /** called once k6 is started; pid is also its process group id */
  onSpawn?: (info: { pid: number }) => void;
  /** verification only: also let k6 write its own summary export to this path */
  summaryExportPath?: string;
  /** verification only: also let k6 write every sample (its JSON output) to this path */
  rawSamplesPath?: string;
  /** distributed runs: this generator's k6 execution segment (see K6ArgsInput) */
  executionSegment?: { segment: string; sequence: string };
  /**
   * How long the output keeps a second open for samples that arrive late, in ms; default
   * $POOLBENCH_OUTPUT_GRACE_MS, else the output's own (1 000).
   */
  outputGraceMs?: number;
  /** CPUs k6 runs on (a kernel cpu list like "1" or "2-3", via taskset); absent = any */
  cpus?: string;
  /**
   * Run a user's own script: `script` (and `files`) are archived in a sandbox without network,
   * then the archive runs in a sandbox with the network pinned (see K6SandboxOptions).
   */
  sandbox?: K6SandboxOptions;
}

export interface K6RunResult {
  endReason: K6EndReason;
  exitCode: number | null;
  exitSignal: NodeJS.Signals | null;
  /** k6's pid (= its process group id); undefined if the run was aborted before it started */
  pid: number | undefined;
  summary: K6Summary;
  /** samples that reached the output after their second was written (not in any second) */
  lateSamples: number;
  lateRequests: number;
  /** the longest a load sample took to reach the output, and the output's grace (end line) */
  maxSampleLagMs: number | undefined;
  outputGraceMs: number | undefined;
  /** per request name over the load (end line), by name; requests of names past the output's cap */
  steps: K6Step[];
  stepsOverflow: number;
  /** the tagged series the script's thresholds name (end line); samples of series past the cap */
  subMetrics: K6SubMetric[];
  subMetricsDropped: number;
  /** samples of the script's own metrics past the output's cap of 16 (end line) */
  customDropped: number;
  /** the output's open time (end line): setup(), load and teardown(); undefined without end line */
  testDurationMs: number | undefined;
  /**
   * The load phase in unix ms (end line): from the start of the first load iteration to the end
   * of the last load sample; rates divide by it. Undefined without end line or without load.
   */
  load: { startMs: number; endMs: number } | undefined;
  /** false when k6 died before writing the end line (e.g. SIGKILL): the seconds seen are kept */
  outputComplete: boolean;
  /** the test error k6 reported to its outputs, if any */
  k6Error: string | undefined;
  /** last lines k6 wrote to stderr/stdout, for error reports */
  stderrTail: string[];
  stdoutTail: string[];
  /** first error thrown by onSecond; the run itself continues */
  onSecondError: unknown;
  startedAt: Date;
  endedAt: Date;
  /** sandboxed runs: the limits and what the run's cgroup saw (e.g. oomKilled) */
  sandbox?: SandboxReport;
}

const OUTPUT_FD = 3;
const SECRET_NAME = /^(?!K6_)[A-Za-z_][A-Za-z0-9_]*$/;

function secretEnvOf(opts: RunK6Options): Record<string, string> {
  const env = opts.secretEnv ?? {};
  for (const key of Object.keys(env)) {
    if (!SECRET_NAME.test(key))
      throw new Error(
        `invalid secret env name ${JSON.stringify(key)}: letters, digits and _, not starting with K6_`,
      );
  }
  return env;
}

/** A file name beside the script, or an error naming it and the reason. */
function checkedFileName(name: string): string {
  const problem = scriptFileNameProblem(name);
  if (problem) throw new Error(`invalid script file name ${JSON.stringify(name)}: ${problem}`);
  return name;
}

/** One request name's part of a run: a flow's step, or a request of a mix. */
export interface K6Step {
  name: string;
  requests: number;
  failed: number;
  /** latency (http_req_duration) over the load, ms; null without a timed request */
  latency: HdrStatsMs | null;
}

/** One tagged series over the load, with its histogram (base64, µs) when it is a trend. */
export type K6SubMetric = RunSubMetric & { histogram?: string };

/** The end line's tagged series, decoded. */
export function subMetricsOf(end: EndLine | undefined): K6SubMetric[] {
  return (end?.subMetrics ?? []).map(({ hist, nonZero, ...s }) => ({
    ...s,
    ...(hist ? { trend: histogramStatsMs(decodeHistogram(hist)), histogram: hist } : {}),
    ...(s.type === 'rate' ? { rate: s.count > 0 ? (nonZero ?? 0) / s.count : null } : {}),
  }));
}

function stepsOf(end: EndLine | undefined): K6Step[] {
  return Object.entries(end?.steps ?? {})
    .map(([name, s]) => ({
      name,
      requests: s.requests,
      failed: s.failed,
      latency: histogramStatsMs(decodeHistogram(s.hist)),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The output's grace period for k6's environment, when one is set; the output validates it. */
function graceEnvOf(opts: RunK6Options): Record<string, string> {
  const ms = opts.outputGraceMs ?? process.env.POOLBENCH_OUTPUT_GRACE_MS;
  return ms === undefined || ms === '' ? {} : { K6_POOLBENCH_GRACE_MS: String(ms) };
}

/**
 * Runs one k6 test with the poolbench output and streams its per-second buckets.
 * Throws only when k6 cannot be started (K6BinaryError) or an option is invalid;
 * everything that happens once k6 runs is reported through the result's endReason.
 */
export async function runK6(opts: RunK6Options): Promise<K6RunResult> {
  const bin = resolveK6Bin(opts.k6Bin);
  await assertExecutable(bin);
  secretEnvOf(opts);
  const startedAt = new Date();
  const acc = new SummaryAccumulator();
  if (opts.signal?.aborted) {
    return emptyResult('aborted', acc, startedAt);
  }
  if (opts.sandbox)
    checkSandboxedRun(
      opts.sandbox,
      opts.blacklistIps,
      opts.summaryExportPath ?? opts.rawSamplesPath,
    );
  const dir = opts.sandbox
    ? await sandboxTempDir('poolbench-k6-')
    : await mkdtemp(join(tmpdir(), 'poolbench-k6-'));
  let sandboxed: SandboxedRun | undefined;
  try {
    // A sandboxed run writes its inputs to in/ (seen by the archive step only) and runs run/archive.tar.
    const inputDir = opts.sandbox ? join(dir, 'in') : dir;
    if (opts.sandbox) await mkdir(inputDir);
    let scriptPath = join(inputDir, USER_SCRIPT_FILE);
    await writeFile(scriptPath, opts.script, { mode: 0o600 });
    for (const [name, content] of Object.entries(opts.files ?? {}))
      await writeFile(join(inputDir, checkedFileName(name)), content, { mode: 0o600 });
    if (opts.sandbox) {
      const prepared = await prepareSandboxedRun({
        k6Bin: bin,
        dir,
        inputDir,
        sandbox: opts.sandbox,
        env: opts.env ?? {},
        blacklistIps: opts.blacklistIps ?? [],
        // what a plain run adds to k6's environment (the sandbox adds its own)
        k6Env: { ...graceEnvOf(opts), ...secretEnvOf(opts) },
        signal: opts.signal,
      });
      if (!prepared.ok) {
        const r = emptyResult(prepared.step.aborted ? 'aborted' : 'k6_error', acc, startedAt);
        return { ...r, ...prepared.failure };
      }
      sandboxed = prepared;
      scriptPath = `${SANDBOX_INPUT}/${ARCHIVE_FILE}`;
    }
    const args = buildK6Args({
      scriptPath,
      // A pipe, not a file: lines arrive as soon as a second closes, and EOF marks the end.
      outputPath: `/dev/fd/${OUTPUT_FD}`,
      env: opts.env ?? {},
      includeProcessEnv: Object.keys(opts.secretEnv ?? {}).length > 0,
      blacklistIps: opts.blacklistIps ?? [],
      summaryExportPath: opts.summaryExportPath,
      rawSamplesPath: opts.rawSamplesPath,
      executionSegment: opts.executionSegment,
    });
    if (sandboxed) {
      // The sandbox is wrapped around the final command line, with the enforced flags in it.
      const command = await sandboxed.wrap([
        ...args.slice(0, -1),
        ...enforcedRunFlags(),
        args.at(-1)!,
      ]);
      return await supervise(bin, args, dir, opts, acc, startedAt, command);
    }
    return await supervise(bin, args, dir, opts, acc, startedAt);
  } finally {
    await sandboxed?.cleanup();
    await rm(dir, { recursive: true, force: true });
  }
}

function emptyResult(
  endReason: K6EndReason,
  acc: SummaryAccumulator,
  startedAt: Date,
): K6RunResult {
  return {
    endReason,
    exitCode: null,
    exitSignal: null,
    pid: undefined,
    summary: acc.summary(),
    lateSamples: 0,
    lateRequests: 0,
    maxSampleLagMs: undefined,
    outputGraceMs: undefined,
    steps: [],
    stepsOverflow: 0,
    subMetrics: [],
    subMetricsDropped: 0,
    customDropped: 0,
    testDurationMs: undefined,
    load: undefined,
    outputComplete: false,
    k6Error: undefined,
    stderrTail: [],
    stdoutTail: [],
    onSecondError: undefined,
    startedAt,
    endedAt: new Date(),
  };
}

function supervise(
  bin: string,
  args: string[],
  home: string,
  opts: RunK6Options,
  acc: SummaryAccumulator,
  startedAt: Date,
  sandbox?: SandboxedCommand,
): Promise<K6RunResult> {
  return new Promise((resolve, reject) => {
    // k6 must not outlive a killed worker, and stays on its CPUs when the run isolates it
    const dying = sandbox ? dieWithParent(sandbox.cmd, sandbox.args) : dieWithParent(bin, args);
    const wrapped = onCpus(dying.cmd, dying.args, opts.cpus);
    const child = spawn(wrapped.cmd, wrapped.args, {
      cwd: home,
      // Own process group, so the caller can kill k6 and anything it starts in one go.
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
      // A clean environment: K6_* variables or a ~/.config/k6 file must not reconfigure the run;
      // the one K6_ variable set is the poolbench output's own grace period.
      env: childEnv(
        sandbox?.env ?? {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: home,
          XDG_CONFIG_HOME: home,
          TMPDIR: tmpdir(),
          ...graceEnvOf(opts),
          ...secretEnvOf(opts),
        },
      ),
    });
    const stderr = new TailBuffer(40);
    const stdout = new TailBuffer(40);
    child.stderr?.on('data', (d: Buffer) => stderr.push(d));
    child.stdout?.on('data', (d: Buffer) => stdout.push(d));

    let stopReason: 'aborted' | 'timed_out' | undefined;
    let killTimer: NodeJS.Timeout | undefined;
    let end: EndLine | undefined;
    let onSecondError: unknown;
    let chain: Promise<void> = Promise.resolve();
    let badLines = 0;

    const signalGroup = (sig: NodeJS.Signals) => {
      if (child.pid === undefined) return;
      // bwrap forwards no signal: the sandbox delivers it to k6 inside (SIGKILL: to all of it)
      if (sandbox) return sandbox.signal(sig, child.pid);
      try {
        process.kill(-child.pid, sig);
      } catch {
        // ESRCH: the group is already gone.
      }
    };
    const stop = (reason: 'aborted' | 'timed_out') => {
      if (stopReason || child.exitCode !== null || child.signalCode !== null) return;
      stopReason = reason;
      signalGroup('SIGINT');
      killTimer = setTimeout(() => signalGroup('SIGKILL'), opts.stopGraceMs ?? 10_000);
    };
    const onAbort = () => stop('aborted');
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    const timeout =
      opts.timeoutMs === undefined
        ? undefined
        : setTimeout(() => stop('timed_out'), opts.timeoutMs);

    const lines = createInterface({
      input: child.stdio[OUTPUT_FD] as Readable,
      crlfDelay: Infinity,
    });
    lines.on('line', (text) => {
      let line;
      try {
        line = parseOutputLine(text);
      } catch {
        badLines++;
        return;
      }
      if (line.type === 'end') {
        end = line;
        return;
      }
      const second = acc.add(line);
      if (opts.onSecond) {
        const cb = opts.onSecond;
        chain = chain
          .then(() => cb(second))
          .catch((err: unknown) => {
            onSecondError ??= err;
          });
      }
    });

    child.once('spawn', () => {
      if (child.pid !== undefined) opts.onSpawn?.({ pid: child.pid });
    });
    child.once('exit', () => {
      // Leftovers in the group (none expected from k6) must not hold the pipes open.
      signalGroup('SIGKILL');
    });
    child.once('error', (err) => {
      cleanup();
      signalGroup('SIGKILL');
      reject(new K6BinaryError(`could not start k6 (${bin}): ${err.message}`));
    });
    child.once('close', (code, sig) => {
      cleanup();
      void chain.then(() => {
        let endReason: K6EndReason = stopReason ?? (code === 0 ? 'completed' : 'k6_error');
        const stderrTail = stderr.lines();
        const sandboxReport = sandbox?.report();
        if (sandboxReport) stderrTail.push(...limitMessages(sandboxReport));
        if (badLines > 0) stderrTail.push(`poolbench: ${badLines} unreadable output line(s)`);
        if (endReason === 'completed' && (badLines > 0 || end === undefined)) {
          endReason = 'k6_error';
          if (end === undefined) {
            stderrTail.push(
              'poolbench: k6 exited without the output end line; is this a k6 built with the poolbench output?',
            );
          }
        }
        resolve({
          endReason,
          exitCode: code,
          exitSignal: sig,
          pid: child.pid,
          summary: acc.summary(),
          lateSamples: end?.lateSamples ?? 0,
          lateRequests: end?.lateRequests ?? 0,
          maxSampleLagMs: end?.maxLagMs,
          outputGraceMs: end?.graceMs,
          steps: stepsOf(end),
          stepsOverflow: end?.stepsOverflow ?? 0,
          subMetrics: subMetricsOf(end),
          subMetricsDropped: end?.subMetricsDropped ?? 0,
          customDropped: end?.customDropped ?? 0,
          testDurationMs: end?.durationMs,
          load:
            end?.loadStartMs !== undefined && end.loadEndMs !== undefined
              ? { startMs: end.loadStartMs, endMs: end.loadEndMs }
              : undefined,
          outputComplete: end !== undefined,
          k6Error: end?.error,
          stderrTail,
          stdoutTail: stdout.lines(),
          onSecondError,
          startedAt,
          endedAt: new Date(),
          ...(sandboxReport ? { sandbox: sandboxReport } : {}),
        });
      });
    });

    function cleanup() {
      clearTimeout(timeout);
      clearTimeout(killTimer);
      opts.signal?.removeEventListener('abort', onAbort);
    }
  });
}
