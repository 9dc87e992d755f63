import { spawn } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { scriptFileNameProblem } from '@poolbench/scenarios';
import { assertExecutable, resolveK6Bin } from './k6-binary';
import { dieWithParent } from './parent-death';
import { childEnv } from './child-env';
import {
  SANDBOX_INPUT,
  SandboxUnavailableError,
  handOverToSandbox,
  sandboxTempDir,
  limitMessages,
  sandboxK6,
  type SandboxLimits,
  type SandboxReport,
  type SandboxedCommand,
} from './sandbox';
import { readArchiveMetadata, rewriteArchiveMetadata } from './sandbox-tar';
import { TailBuffer } from './tail-buffer';

/** The user's script inside its input directory, and the archive k6 makes of it. */
export const USER_SCRIPT_FILE = 'script.js';
export const ARCHIVE_FILE = 'archive.tar';

/** Limits for the archive and inspect steps: they only load the script (its init code). */
export const VALIDATION_LIMITS: Required<Pick<SandboxLimits, 'memoryBytes' | 'pidsMax'>> = {
  memoryBytes: 512 * 1024 * 1024,
  pidsMax: 256,
};
const DEFAULT_STEP_TIMEOUT_MS = 60_000;
/** An archive bundles the script, its local modules and every file it opens. */
const MAX_ARCHIVE_BYTES = 256 * 1024 * 1024;
const ENV_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Same rule as runK6's `files`: a plain name, never a path. */

/** k6's global flags for every sandboxed step: no REST API, plain logs, no progress bar. */
const QUIET = ['--address', '', '--no-color', '--log-format=raw', '--quiet'];

export interface StepOptions {
  /** values for `-e` (archive step) */
  env?: Record<string, string>;
  limits?: SandboxLimits;
  /** the step's wall clock; default 60 000 */
  timeoutMs?: number;
  cgroupParent?: string;
  /** kills the step (the result then has `aborted`) */
  signal?: AbortSignal;
}

export interface SandboxStepResult {
  exitCode: number | null;
  exitSignal: NodeJS.Signals | null;
  stdout: Buffer;
  /** the last 40 lines of stderr, plus a line naming a limit the sandbox hit */
  stderrTail: string[];
  timedOut: boolean;
  aborted: boolean;
  report: SandboxReport;
}

/**
 * Runs one short k6 command (archive, inspect) in a sandbox WITHOUT network and collects its
 * output. Not for `k6 run` (runK6 does that).
 */
export async function runSandboxedStep(
  k6Bin: string,
  inputDir: string,
  k6Args: string[],
  opts: StepOptions = {},
): Promise<SandboxStepResult> {
  const sandbox = await sandboxK6(
    {
      ...VALIDATION_LIMITS,
      ...opts.limits,
      k6Bin,
      inputDir,
      network: false,
      cgroupParent: opts.cgroupParent,
      env: {
        PATH: '/usr/local/bin',
        HOME: '/tmp',
        XDG_CONFIG_HOME: '/tmp',
        TMPDIR: '/tmp',
        ...opts.env,
      },
    },
    k6Args,
  );
  try {
    return await new Promise<SandboxStepResult>((resolve, reject) => {
      const wrapped = dieWithParent(sandbox.cmd, sandbox.args);
      const child = spawn(wrapped.cmd, wrapped.args, {
        cwd: inputDir,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: childEnv(sandbox.env),
      });
      const chunks: Buffer[] = [];
      let size = 0;
      let tooBig = false;
      const stderr = new TailBuffer(40);
      let timedOut = false;
      const kill = () => sandbox.signal('SIGKILL', child.pid);
      child.stdout.on('data', (d: Buffer) => {
        size += d.length;
        if (size > MAX_ARCHIVE_BYTES) {
          if (!tooBig) kill();
          tooBig = true;
          return;
        }
        chunks.push(d);
      });
      child.stderr.on('data', (d: Buffer) => stderr.push(d));
      const timer = setTimeout(() => {
        timedOut = true;
        kill();
      }, opts.timeoutMs ?? DEFAULT_STEP_TIMEOUT_MS);
      let aborted = false;
      const onAbort = () => {
        aborted = true;
        kill();
      };
      if (opts.signal?.aborted) onAbort();
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      child.once('error', (err) => {
        clearTimeout(timer);
        opts.signal?.removeEventListener('abort', onAbort);
        kill();
        reject(err);
      });
      child.once('close', (code, sig) => {
        clearTimeout(timer);
        opts.signal?.removeEventListener('abort', onAbort);
        const report = sandbox.report();
        const tail = stderr.lines();
        // The sandbox itself did not start (no user namespaces, a cgroup it could not join):
        // that is no verdict on the script.
        const setup = tail.find((l) => /^(bwrap|setpriv): |^poolbench: cannot join/.test(l));
        if (setup && (code === 1 || code === 125) && !timedOut) {
          reject(new SandboxUnavailableError(`the sandbox could not start: ${setup}`));
          return;
        }
        tail.push(...limitMessages(report));
        if (timedOut)
          tail.push(`poolbench: stopped after ${opts.timeoutMs ?? DEFAULT_STEP_TIMEOUT_MS} ms`);
        if (tooBig) tail.push(`poolbench: the archive exceeds ${MAX_ARCHIVE_BYTES} bytes`);
        resolve({
          exitCode: code,
          exitSignal: sig,
          stdout: Buffer.concat(chunks),
          stderrTail: tail,
          timedOut,
          aborted,
          report,
        });
      });
    });
  } finally {
    await sandbox.cleanup();
  }
}

function envArgs(env: Record<string, string>): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(env)) {
    if (!ENV_KEY.test(key))
      throw new Error(`invalid k6 env name ${JSON.stringify(key)}: use letters, digits and _`);
    out.push('-e', `${key}=${value}`);
  }
  return out;
}

export type ArchiveResult =
  { ok: true; archive: Uint8Array } | { ok: false; error: string; step: SandboxStepResult };

/**
 * `k6 archive` of the script in `inputDir` (USER_SCRIPT_FILE and the files it opens), in a
 * sandbox without network: k6 bundles every local import and opened file, and fails with its
 * own message (file, line) on a syntax error or a remote import, which it cannot fetch there.
 */
export async function archiveUserScript(
  k6Bin: string,
  inputDir: string,
  opts: StepOptions = {},
): Promise<ArchiveResult> {
  const step = await runSandboxedStep(
    k6Bin,
    inputDir,
    [
      'archive',
      ...QUIET,
      '--include-system-env-vars=false',
      ...envArgs(opts.env ?? {}),
      '--archive-out',
      '-',
      USER_SCRIPT_FILE,
    ],
    opts,
  );
  if (step.exitCode !== 0 || step.timedOut || step.aborted) {
    const message = k6Message(step);
    const remote = /couldn't be retrieved from the resolved url/.test(message);
    return {
      ok: false,
      error: remote
        ? `remote modules are not allowed: add the module to the script's files instead. k6: ${message}`
        : message,
      step,
    };
  }
  try {
    readArchiveMetadata(step.stdout);
  } catch (err) {
    return { ok: false, error: (err as Error).message, step };
  }
  return { ok: true, archive: step.stdout };
}

/** k6's own error message from a failed step (its last non-empty stderr lines). */
function k6Message(step: SandboxStepResult): string {
  const lines = step.stderrTail.map((l) => l.trim()).filter(Boolean);
  const useful = lines.filter((l) => !/^(WARN|INFO)\b|level=(warning|info)/.test(l));
  const text = (useful.length > 0 ? useful : lines).slice(-5).join('\n');
  return text || `k6 exited with ${step.exitCode ?? step.exitSignal}`;
}

/** The network pins a run enforces over whatever the script's own `options` say. */
export interface EnforcedNetwork {
  /** k6 `hosts` of the run: each pinned name:port → its checked address, `*` → the sinkhole */
  hosts: Record<string, string>;
  /** `--blacklist-ip`: every address except the pinned ones */
  blacklistIps: readonly string[];
}

/**
 * The archive with the run's network pins in its options. `k6 run archive.tar` takes the options
 * from the archive's metadata.json (it does not read the script's `options` again), then env and
 * CLI flags override them. `hosts` has no flag and no usable env variable, so it is set here:
 * the script's own `hosts` is replaced, not merged. The rest is set both here and by flags.
 */
export function enforceNetwork(archive: Uint8Array, network: EnforcedNetwork): Uint8Array {
  return rewriteArchiveMetadata(archive, (metadata) => {
    if (metadata.type !== 'js') throw new Error('not a k6 JavaScript archive');
    const options =
      typeof metadata.options === 'object' &&
      metadata.options !== null &&
      !Array.isArray(metadata.options)
        ? (metadata.options as Record<string, unknown>)
        : {};
    return {
      ...metadata,
      options: {
        ...options,
        hosts: { ...network.hosts },
        blacklistIPs: [...network.blacklistIps],
        maxRedirects: 0,
        // Started paused, a test waits for the REST API, which a sandboxed run does not have.
        paused: false,
      },
    };
  });
}

/** k6 flags a sandboxed run gets, beating the archive's options (k6: CLI > env > script). */
export function enforcedRunFlags(): string[] {
  return ['--max-redirects', '0', '--paused=false'];
}

/**
 * The environment k6 gets in a sandboxed run, besides the run's own values. Go's module loader
 * fetches an https module that is missing from the archive with a plain HTTP client that ignores
 * k6's `hosts` and `--blacklist-ip`; a proxy that does not exist makes every such fetch fail. The
 * pinned names and addresses are exempt so that k6's own requests to them go direct (through k6's
 * dialer, with the pins). Go never proxies loopback addresses; see docs/security.md for what
 * remains.
 */
export function proxyEnv(
  hosts: Record<string, string>,
  pinnedAddresses: readonly string[] = [],
): Record<string, string> {
  const bare = (hostPort: string) => hostPort.replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
  const names = new Set<string>();
  for (const [key, value] of Object.entries(hosts)) {
    if (key === '*' || key.startsWith('*.')) continue;
    for (const host of [bare(key), bare(value)]) if (host) names.add(host);
  }
  // e.g. an IPv6 literal target, which k6's hosts cannot key
  for (const address of pinnedAddresses) names.add(address.replace(/^\[|\]$/g, ''));
  const dead = 'http://0.0.0.0:9';
  return {
    HTTP_PROXY: dead,
    HTTPS_PROXY: dead,
    http_proxy: dead,
    https_proxy: dead,
    NO_PROXY: [...names].join(','),
    no_proxy: [...names].join(','),
  };
}

export type UserScriptValidation =
  | {
      ok: true;
      /** the script's options as k6 resolved them (scenarios, thresholds, …); null fields left out */
      options: Record<string, unknown>;
      /** k6's execution requirements: the most VUs the scenarios need at once, and the total time */
      maxVUs: number | undefined;
      totalDuration: string | undefined;
      /** the archive's size: the script, its local modules and the files it opens */
      archiveBytes: number;
    }
  | { ok: false; error: string };

function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (v === null) continue;
      const inner = withoutNulls(v);
      if (
        typeof inner === 'object' &&
        inner !== null &&
        !Array.isArray(inner) &&
        Object.keys(inner).length === 0
      )
        continue;
      out[k] = inner;
    }
    return out;
  }
  return value;
}

/**
 * Checks a user's k6 script before it is saved: `k6 archive` (syntax errors, missing or remote
 * imports fail with k6's message and line) then `k6 inspect --execution-requirements` (the
 * resolved options), both in a sandbox without network, with memory, task and time limits.
 * `files` are the script's data files, opened by relative path (`open('./users.csv')`).
 */
export async function validateUserScript(
  source: string,
  files: Record<string, string | Uint8Array> = {},
  opts: {
    k6Bin?: string;
    env?: Record<string, string>;
    limits?: SandboxLimits;
    timeoutMs?: number;
    cgroupParent?: string;
  } = {},
): Promise<UserScriptValidation> {
  const bin = resolveK6Bin(opts.k6Bin);
  await assertExecutable(bin);
  for (const name of Object.keys(files)) {
    const problem = scriptFileNameProblem(name);
    if (problem) throw new Error(`invalid script file name ${JSON.stringify(name)}: ${problem}`);
  }
  const dir = await sandboxTempDir('poolbench-k6-check-');
  try {
    const input = join(dir, 'in');
    const output = join(dir, 'out');
    await mkdir(input);
    await mkdir(output);
    await writeFile(join(input, USER_SCRIPT_FILE), source);
    for (const [name, content] of Object.entries(files))
      await writeFile(join(input, name), content);
    await handOverToSandbox(dir);
    const archived = await archiveUserScript(bin, input, opts);
    if (!archived.ok) return { ok: false, error: archived.error };

    // inspect reads the archive only: nothing of the input directory is visible to it
    await writeFile(join(output, ARCHIVE_FILE), archived.archive);
    await handOverToSandbox(output);
    const inspected = await runSandboxedStep(
      bin,
      output,
      ['inspect', ...QUIET, '--execution-requirements', `${SANDBOX_INPUT}/${ARCHIVE_FILE}`],
      opts,
    );
    if (inspected.exitCode !== 0 || inspected.timedOut)
      return { ok: false, error: k6Message(inspected) };
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(inspected.stdout.toString('utf8')) as Record<string, unknown>;
    } catch {
      return { ok: false, error: 'k6 inspect printed no options' };
    }
    const { maxVUs, totalDuration, ...options } = parsed;
    return {
      ok: true,
      options: withoutNulls(options) as Record<string, unknown>,
      maxVUs: typeof maxVUs === 'number' ? maxVUs : undefined,
      totalDuration: typeof totalDuration === 'string' ? totalDuration : undefined,
      archiveBytes: archived.archive.length,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A sandboxed run (a user's own script); see docs/security.md "Users' own k6 scripts". */
export interface K6SandboxOptions extends SandboxLimits {
  /**
   * The run's k6 `hosts` (each pinned name:port → its checked address, `*` → the sinkhole): it
   * replaces whatever the script's options say. `blacklistIps` must be set too.
   */
  hosts: Record<string, string>;
  /**
   * The run's checked addresses (those kept out of `blacklistIps`), for targets k6's `hosts`
   * cannot name (an IPv6 literal); the hosts' names and addresses are included anyway.
   */
  pinnedAddresses?: readonly string[];
  /** time limit of the archive step (the script's init code, without network); default 60 000 */
  archiveTimeoutMs?: number;
  /** cgroup directory under each controller; default $POOLBENCH_CGROUP_PARENT, else "poolbench" */
  cgroupParent?: string;
}

/** runK6's checks of a sandboxed run's options, before anything is written. */
export function checkSandboxedRun(
  sandbox: K6SandboxOptions,
  blacklistIps: readonly string[] | undefined,
  /** summaryExportPath or rawSamplesPath: files the sandbox's k6 could not write outside it */
  verificationPath: string | undefined,
): void {
  if (!blacklistIps || blacklistIps.length === 0)
    throw new Error('a sandboxed run needs blacklistIps: every address except the pinned ones');
  if (typeof sandbox.hosts !== 'object' || sandbox.hosts === null)
    throw new Error('a sandboxed run needs hosts: the pinned names of the run');
  if (verificationPath !== undefined)
    throw new Error('summaryExportPath and rawSamplesPath are not available in a sandboxed run');
}

export interface SandboxedRun {
  ok: true;
  /** the run sandbox around k6's final arguments (creates the run's cgroup) */
  wrap(k6Args: string[]): Promise<SandboxedCommand>;
  /** removes the run's cgroup */
  cleanup(): Promise<void>;
}

export interface FailedArchive {
  ok: false;
  step: SandboxStepResult;
  /** the fields of runK6's result that say why */
  failure: {
    exitCode: number | null;
    exitSignal: NodeJS.Signals | null;
    stderrTail: string[];
    sandbox: SandboxReport;
  };
}

/**
 * The first half of a sandboxed run (runK6's `sandbox` option): `k6 archive` of the inputs
 * runK6 wrote to `inputDir` (a subdirectory of the run's private `dir`) without network, the
 * run's pins written into the archive (`dir/run/archive.tar`, seen by the run as
 * SANDBOX_INPUT/ARCHIVE_FILE), and how to wrap the run's command line in the run sandbox, with
 * network, the enforced flags appended by the caller (enforcedRunFlags).
 */
export async function prepareSandboxedRun(input: {
  k6Bin: string;
  dir: string;
  inputDir: string;
  sandbox: K6SandboxOptions;
  /** the run's -e values */
  env: Record<string, string>;
  blacklistIps: readonly string[];
  /** what else k6's environment holds (the output's grace, the run's secrets) */
  k6Env: Record<string, string>;
  signal?: AbortSignal;
}): Promise<SandboxedRun | FailedArchive> {
  const sb = input.sandbox;
  const limits = { memoryBytes: sb.memoryBytes, pidsMax: sb.pidsMax, cpuQuota: sb.cpuQuota };
  await handOverToSandbox(input.dir);
  const archived = await archiveUserScript(input.k6Bin, input.inputDir, {
    env: input.env,
    limits,
    timeoutMs: sb.archiveTimeoutMs,
    cgroupParent: sb.cgroupParent,
    signal: input.signal,
  });
  if (!archived.ok) {
    return {
      ok: false,
      step: archived.step,
      failure: {
        exitCode: archived.step.exitCode,
        exitSignal: archived.step.exitSignal,
        stderrTail: [
          `poolbench: the script could not be archived: ${archived.error}`,
          ...archived.step.stderrTail,
        ],
        sandbox: archived.step.report,
      },
    };
  }
  const runDir = join(input.dir, 'run');
  await mkdir(runDir);
  await writeFile(
    join(runDir, ARCHIVE_FILE),
    enforceNetwork(archived.archive, { hosts: sb.hosts, blacklistIps: input.blacklistIps }),
  );
  await handOverToSandbox(runDir);
  let command: SandboxedCommand | undefined;
  return {
    ok: true,
    wrap: async (k6Args) => {
      command = await sandboxK6(
        {
          ...limits,
          k6Bin: input.k6Bin,
          inputDir: runDir,
          network: true,
          cgroupParent: sb.cgroupParent,
          // the same curated set as a plain run's, as the sandbox sees it
          env: {
            PATH: '/usr/local/bin',
            HOME: '/tmp',
            XDG_CONFIG_HOME: '/tmp',
            TMPDIR: '/tmp',
            ...proxyEnv(sb.hosts, sb.pinnedAddresses),
            ...input.k6Env,
          },
        },
        k6Args,
      );
      return command;
    },
    cleanup: async () => command?.cleanup(),
  };
}
