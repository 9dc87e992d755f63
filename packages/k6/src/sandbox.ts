import { execFileSync } from 'node:child_process';
import { accessSync, constants, readFileSync, readdirSync, rmdirSync, statSync } from 'node:fs';
import { chmod, chown, lstat, mkdir, mkdtemp, readdir, rmdir, writeFile } from 'node:fs/promises';
import { delimiter, dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '@poolbench/contracts/errors';

/**
 * A sandbox for k6 running a user's own script: bubblewrap (mount, PID, IPC, UTS, cgroup and user
 * namespaces, and a network namespace unless the run needs the network) as an unprivileged user,
 * inside a per-run cgroup that limits memory and tasks (and CPU time when asked). See
 * docs/security.md "Users' own k6 scripts".
 */

/** Where the sandbox sees k6 and the run's inputs (read-only); its cwd is the inputs. */
export const SANDBOX_K6 = '/usr/local/bin/k6';
export const SANDBOX_INPUT = '/script';
/** The unprivileged user and group k6 runs as when the worker runs as root (`nobody`). */
export const SANDBOX_UID = 65534;
export const SANDBOX_GID = 65534;

/**
 * k6 configuration every sandboxed k6 gets. By default k6 v1 meets a `k6/x/…` import or a
 * `"use k6 …"` directive its binary does not satisfy by downloading another k6 build from
 * Grafana's build service and running that: never in a sandbox.
 */
export const ENFORCED_ENV: Readonly<Record<string, string>> = {
  K6_AUTO_EXTENSION_RESOLUTION: 'false',
  K6_BINARY_PROVISIONING: 'false', // its older name
};

const CGROUP_ROOT = '/sys/fs/cgroup';
const DEFAULT_CGROUP_PARENT = 'poolbench';
const DEFAULT_PIDS_MAX = 512;
const DEFAULT_TMP_BYTES = 64 * 1024 * 1024;
const CFS_PERIOD_US = 100_000;
/** CA certificates for https; the only part of /etc the sandbox sees. Missing ones are skipped. */
const CERT_DIRS = [
  '/etc/ssl/certs',
  '/usr/share/ca-certificates',
  '/etc/pki/tls/certs',
  '/etc/pki/ca-trust/extracted',
];

/** The sandbox cannot be set up here (no bwrap, no writable cgroups, …): no user script runs. */
export class SandboxUnavailableError extends AppError<'sandbox_unavailable'> {
  constructor(message: string) {
    super('sandbox_unavailable', message);
    this.name = 'SandboxUnavailableError';
  }
}

export interface SandboxLimits {
  /** cgroup memory limit for everything in the sandbox (k6, its tmpfs), bytes; swap is not allowed */
  memoryBytes: number;
  /** cgroup limit on tasks (processes and threads); default 512 */
  pidsMax?: number;
  /** CPU time as a number of CPUs (cgroup CFS quota, e.g. 1.5); absent = no quota */
  cpuQuota?: number;
}

export interface SandboxSpec extends SandboxLimits {
  /** k6 binary on the host, mounted read-only at SANDBOX_K6 */
  k6Bin: string;
  /** the run's inputs on the host (script, data files or an archive), mounted read-only at SANDBOX_INPUT */
  inputDir: string;
  /** false: a network namespace of its own with nothing but loopback (no route anywhere) */
  network: boolean;
  /**
   * The sandbox's complete environment. It is the spawned process's environment, passed on by
   * bwrap as it is, so values (secrets) stay off every command line.
   */
  env: Record<string, string>;
  /** cgroup directory under each controller's root; default $POOLBENCH_CGROUP_PARENT, else "poolbench" */
  cgroupParent?: string;
  /** size of the private writable /tmp (tmpfs, counted in the memory limit); default 64 MiB */
  tmpBytes?: number;
}

/** What the per-run cgroup saw; read after the run, before the cgroup is removed. */
export interface SandboxReport {
  memoryLimitBytes: number;
  /** highest memory use of the sandbox (cgroup max_usage_in_bytes) */
  memoryPeakBytes: number | undefined;
  /** the kernel killed a process of the sandbox because the memory limit was reached */
  oomKilled: boolean;
  pidsMax: number;
  /** a fork or thread creation was refused because of the tasks limit */
  pidsLimitHit: boolean;
  /** with a CPU quota: the quota and how many 100 ms periods the sandbox was throttled in */
  cpuQuota?: number;
  cpuThrottledPeriods?: number;
  /** uid the sandbox ran as */
  uid: number;
}

export interface SandboxedCommand {
  /** spawn this (then wrap it as usual: parent-death signal, CPU affinity) */
  cmd: string;
  args: string[];
  /** the spawn environment (= the sandbox's environment) */
  env: Record<string, string>;
  cgroup: RunCgroup;
  /**
   * Delivers a stop signal. SIGKILL kills everything in the run's cgroup (and the spawned process
   * group); any other signal goes to the k6 process inside, which bwrap would not forward, so a
   * SIGINT still means k6's graceful stop. Before k6 has started the group gets it instead.
   */
  signal(sig: NodeJS.Signals, groupLeader: number | undefined): void;
  report(): SandboxReport;
  /** kills anything left and removes the cgroup; safe to call twice */
  cleanup(): Promise<void>;
}

function onPath(name: string, dirs: readonly string[]): string | null {
  for (const dir of dirs) {
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

const SYSTEM_DIRS = ['/usr/bin', '/bin', '/usr/sbin', '/sbin'];
/** --disable-userns and --size (of a tmpfs) need bubblewrap 0.8 */
const MIN_BWRAP: [number, number] = [0, 8];

interface Tools {
  bwrap: string;
  setpriv: string;
  sh: string;
}

const checkedBwrap = new Set<string>();

function checkBwrapVersion(bwrap: string): void {
  if (checkedBwrap.has(bwrap)) return;
  let out = '';
  try {
    out = execFileSync(bwrap, ['--version'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (err) {
    throw new SandboxUnavailableError(`cannot run ${bwrap}: ${(err as Error).message}`);
  }
  const m = /(\d+)\.(\d+)/.exec(out);
  const [major, minor] = m ? [Number(m[1]), Number(m[2])] : [0, 0];
  if (major < MIN_BWRAP[0] || (major === MIN_BWRAP[0] && minor < MIN_BWRAP[1]))
    throw new SandboxUnavailableError(
      `${bwrap} is ${out.trim() || 'of an unknown version'}; user scripts need bubblewrap >= ${MIN_BWRAP.join('.')}`,
    );
  checkedBwrap.add(bwrap);
}

/**
 * bwrap (>= 0.8), setpriv and sh, or a SandboxUnavailableError saying what to install.
 * `dirs`: where to look (default $PATH, then the system directories).
 */
export function sandboxTools(
  dirs: readonly string[] = [
    ...(process.env.PATH ?? '').split(delimiter).filter(Boolean),
    ...SYSTEM_DIRS,
  ],
): Tools {
  if (process.platform !== 'linux')
    throw new SandboxUnavailableError('user scripts run only on Linux (bubblewrap sandbox)');
  const bwrap = onPath('bwrap', dirs);
  if (!bwrap)
    throw new SandboxUnavailableError(
      'bwrap (bubblewrap) is not installed: user scripts run only inside its sandbox. ' +
        'Install it with "apt-get install bubblewrap" (scripts/setup.sh does)',
    );
  checkBwrapVersion(bwrap);
  const setpriv = onPath('setpriv', dirs);
  if (!setpriv)
    throw new SandboxUnavailableError(
      'setpriv (util-linux) is not installed: it is needed to run user scripts',
    );
  const sh = onPath('sh', ['/bin', '/usr/bin']);
  if (!sh) throw new SandboxUnavailableError('/bin/sh is missing');
  return { bwrap, setpriv, sh };
}

const libsCache = new Map<string, string[]>();

/**
 * The shared libraries the k6 binary loads (and its ELF interpreter), from ldd; [] for a static
 * binary. Mounted read-only at the same paths: nothing else of /lib or /usr is visible.
 */
export function sharedLibraries(bin: string): string[] {
  const cached = libsCache.get(bin);
  if (cached) return cached;
  let out = '';
  try {
    out = execFileSync('ldd', [bin], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    const text =
      String((err as { stdout?: string }).stdout ?? '') +
      String((err as { stderr?: string }).stderr ?? '');
    if (/not a dynamic executable|statically linked/.test(text)) out = '';
    else
      throw new SandboxUnavailableError(
        `cannot list the shared libraries of ${bin} with ldd: ${(err as Error).message}`,
      );
  }
  const libs: string[] = [];
  for (const line of out.split('\n')) {
    const m = /=>\s*(\/\S+)/.exec(line) ?? /^\s*(\/\S+)\s+\(0x/.exec(line);
    if (m) libs.push(m[1]!);
  }
  libsCache.set(bin, libs);
  return libs;
}

function sandboxIds(): { uid: number; gid: number } {
  const uid = process.getuid?.() ?? SANDBOX_UID;
  // As root the sandbox drops to nobody; otherwise it runs as the worker's own (unprivileged) user.
  return uid === 0
    ? { uid: SANDBOX_UID, gid: SANDBOX_GID }
    : { uid, gid: process.getgid?.() ?? uid };
}

/** Where sandboxed steps get their private directories: POOLBENCH_SANDBOX_DIR, else this. */
export const DEFAULT_SANDBOX_DIR = '/tmp/poolbench-sandbox';

/**
 * A private directory for one sandboxed step. bwrap runs as the sandbox's user and must reach
 * what it mounts, so the directory sits under a root that user may traverse but not list (0711),
 * whose every ancestor it may traverse too: a worker's own TMPDIR may be private (0700), and a
 * directory there would be out of the sandbox's reach. A root that is not is refused by name.
 */
export async function sandboxTempDir(prefix: string): Promise<string> {
  const root = process.env.POOLBENCH_SANDBOX_DIR || DEFAULT_SANDBOX_DIR;
  await mkdir(root, { recursive: true, mode: 0o711 });
  if (process.getuid?.() === 0) {
    const st = await lstat(root);
    if (st.uid === 0) await chmod(root, 0o711);
    for (let p = root; ; p = dirname(p)) {
      if (((await lstat(p)).mode & 0o001) === 0)
        throw new SandboxUnavailableError(
          `${p} does not let the sandbox's user through (others need x): set POOLBENCH_SANDBOX_DIR to a directory they can reach`,
        );
      if (p === dirname(p)) break;
    }
  }
  return mkdtemp(join(root, prefix));
}

/**
 * Makes a run's input directory (and everything in it) readable by the sandbox's user only, so
 * bwrap, which runs as that user, can mount it. Run it on the run's own private directory.
 */
export async function handOverToSandbox(dir: string): Promise<void> {
  const { uid, gid } = sandboxIds();
  const walk = async (path: string) => {
    const st = await lstat(path);
    if (st.isSymbolicLink()) throw new Error(`unexpected symlink in a sandbox input: ${path}`);
    if (st.isDirectory()) {
      for (const name of await readdir(path)) await walk(join(path, name));
      await chmod(path, 0o700);
    } else {
      await chmod(path, 0o400);
    }
    if (process.getuid?.() === 0) await chown(path, uid, gid);
  };
  await walk(dir);
}

/** One run's cgroup (v1): memory and pids always, cpu when a quota is asked for. */
export class RunCgroup {
  /** the directories this run created (removed by cleanup) */
  private readonly created: string[] = [];

  private constructor(
    readonly name: string,
    readonly dirs: { memory: string; pids: string; cpu?: string },
    readonly limits: { memoryBytes: number; pidsMax: number; cpuQuota?: number },
  ) {}

  /** The cgroup.procs files a process writes its pid to, to join the run's cgroups. */
  procsFiles(): string[] {
    return Object.values(this.dirs).map((d) => join(d, 'cgroup.procs'));
  }

  /** Processes now in the run's cgroup (host pids). */
  pids(): number[] {
    try {
      return readFileSync(join(this.dirs.memory, 'cgroup.procs'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map(Number);
    } catch {
      return [];
    }
  }

  static async create(limits: SandboxLimits, parent?: string): Promise<RunCgroup> {
    const parentName = parent ?? process.env.POOLBENCH_CGROUP_PARENT ?? DEFAULT_CGROUP_PARENT;
    if (
      !/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/.test(parentName) ||
      parentName.split('/').includes('..')
    )
      throw new SandboxUnavailableError(`invalid cgroup parent ${JSON.stringify(parentName)}`);
    if (!Number.isSafeInteger(limits.memoryBytes) || limits.memoryBytes < 16 * 1024 * 1024)
      throw new Error('sandbox memoryBytes: an integer of at least 16 MiB');
    const pidsMax = limits.pidsMax ?? DEFAULT_PIDS_MAX;
    if (!Number.isSafeInteger(pidsMax) || pidsMax < 16)
      throw new Error('sandbox pidsMax: at least 16');
    if (limits.cpuQuota !== undefined && !(limits.cpuQuota >= 0.01 && limits.cpuQuota <= 1024))
      throw new Error('sandbox cpuQuota: a number of CPUs between 0.01 and 1024');

    const controllers = ['memory', 'pids', ...(limits.cpuQuota === undefined ? [] : ['cpu'])];
    for (const c of controllers) {
      const root = join(CGROUP_ROOT, c);
      try {
        statSync(join(root, 'cgroup.procs'));
      } catch {
        throw new SandboxUnavailableError(
          `the cgroup v1 ${c} controller is not mounted at ${root}: a user script never runs without ` +
            'memory and task limits',
        );
      }
    }
    sweepStale(parentName);
    const name = `run-${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
    const dirs: { memory: string; pids: string; cpu?: string } = {
      memory: join(CGROUP_ROOT, 'memory', parentName, name),
      pids: join(CGROUP_ROOT, 'pids', parentName, name),
    };
    if (limits.cpuQuota !== undefined) dirs.cpu = join(CGROUP_ROOT, 'cpu', parentName, name);
    const cg = new RunCgroup(name, dirs, {
      memoryBytes: limits.memoryBytes,
      pidsMax,
      cpuQuota: limits.cpuQuota,
    });
    try {
      for (const dir of Object.values(dirs)) {
        await mkdir(dir, { recursive: true });
        cg.created.push(dir);
      }
      await writeFile(join(dirs.memory, 'memory.limit_in_bytes'), String(limits.memoryBytes));
      // With swap accounting, memory+swap gets the same limit: the sandbox cannot swap.
      await writeFile(
        join(dirs.memory, 'memory.memsw.limit_in_bytes'),
        String(limits.memoryBytes),
      ).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') throw err;
      });
      await writeFile(join(dirs.pids, 'pids.max'), String(pidsMax));
      if (dirs.cpu) {
        await writeFile(join(dirs.cpu, 'cpu.cfs_period_us'), String(CFS_PERIOD_US));
        await writeFile(
          join(dirs.cpu, 'cpu.cfs_quota_us'),
          String(Math.max(1000, Math.round(limits.cpuQuota! * CFS_PERIOD_US))),
        );
      }
      const written = Number(readFileSync(join(dirs.memory, 'memory.limit_in_bytes'), 'utf8'));
      if (!(written > 0 && written <= limits.memoryBytes))
        throw new Error(`memory.limit_in_bytes reads ${written}`);
    } catch (err) {
      await cg.cleanup();
      throw new SandboxUnavailableError(
        `cannot set up the run's cgroup under ${join(CGROUP_ROOT, '<controller>', parentName)} ` +
          `(${(err as Error).message}): a user script never runs without memory and task limits`,
      );
    }
    return cg;
  }

  /** Sends sig to every process of the sandbox, or with onlyK6 to the k6 processes only. */
  kill(sig: NodeJS.Signals, onlyK6 = false): number {
    let sent = 0;
    for (const pid of this.pids()) {
      if (onlyK6) {
        let comm = '';
        try {
          comm = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
        } catch {
          continue;
        }
        if (comm !== 'k6') continue;
      }
      try {
        process.kill(pid, sig);
        sent++;
      } catch {
        // already gone
      }
    }
    return sent;
  }

  report(uid: number): SandboxReport {
    const read = (dir: string | undefined, file: string): string | undefined => {
      if (!dir) return undefined;
      try {
        return readFileSync(join(dir, file), 'utf8');
      } catch {
        return undefined;
      }
    };
    const peak = Number(read(this.dirs.memory, 'memory.max_usage_in_bytes'));
    const oomKills = Number(
      /^oom_kill (\d+)/m.exec(read(this.dirs.memory, 'memory.oom_control') ?? '')?.[1] ?? 0,
    );
    const pidsMaxEvents = Number(
      /^max (\d+)/m.exec(read(this.dirs.pids, 'pids.events') ?? '')?.[1] ?? 0,
    );
    const throttled = /^nr_throttled (\d+)/m.exec(read(this.dirs.cpu, 'cpu.stat') ?? '')?.[1];
    return {
      memoryLimitBytes: this.limits.memoryBytes,
      memoryPeakBytes: Number.isFinite(peak) ? peak : undefined,
      oomKilled: oomKills > 0,
      pidsMax: this.limits.pidsMax,
      pidsLimitHit: pidsMaxEvents > 0,
      ...(this.limits.cpuQuota === undefined
        ? {}
        : { cpuQuota: this.limits.cpuQuota, cpuThrottledPeriods: Number(throttled ?? 0) }),
      uid,
    };
  }

  async cleanup(): Promise<void> {
    for (let attempt = 0; this.created.length > 0; attempt++) {
      if (attempt > 0) await sleep(20);
      this.kill('SIGKILL');
      for (const dir of [...this.created]) {
        try {
          await rmdir(dir); // EBUSY while a (dying) process is still in it
          this.created.splice(this.created.indexOf(dir), 1);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'ENOENT')
            this.created.splice(this.created.indexOf(dir), 1);
          else if (attempt >= 250)
            throw new Error(`cannot remove the run's cgroup ${dir}: ${(err as Error).message}`);
        }
      }
    }
  }
}

/**
 * Removes the empty cgroups of workers that died without cleaning up (a worker killed with -9):
 * a run's cgroup is named after its worker's pid, and only cgroups of pids that no longer exist
 * are touched.
 */
function sweepStale(parentName: string): void {
  for (const controller of ['memory', 'pids', 'cpu']) {
    const parent = join(CGROUP_ROOT, controller, parentName);
    let names: string[] = [];
    try {
      names = readdirSync(parent);
    } catch {
      continue;
    }
    for (const name of names) {
      const m = /^run-(\d+)-/.exec(name);
      if (!m || Number(m[1]) === process.pid) continue;
      try {
        process.kill(Number(m[1]), 0);
        continue; // its worker still runs
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EPERM') continue;
      }
      try {
        rmdirSync(join(parent, name)); // fails (EBUSY) while a process is in it
      } catch {
        // not empty or already gone
      }
    }
  }
}

/** The bwrap arguments (without the command) for one sandbox. */
export function bwrapArgs(spec: SandboxSpec, libs: string[]): string[] {
  const args = [
    // Every namespace bwrap knows, including a user namespace in which the sandbox's user has
    // no privilege, and (unless the run needs it) the network.
    '--unshare-all',
    '--unshare-user',
    ...(spec.network ? ['--share-net'] : []),
    '--disable-userns',
    '--die-with-parent',
    '--new-session',
    '--cap-drop',
    'ALL',
    '--hostname',
    'poolbench-sandbox',
    '--ro-bind',
    spec.k6Bin,
    SANDBOX_K6,
  ];
  for (const lib of libs) args.push('--ro-bind', lib, lib);
  for (const dir of CERT_DIRS) args.push('--ro-bind-try', dir, dir);
  args.push(
    '--ro-bind',
    spec.inputDir,
    SANDBOX_INPUT,
    '--size',
    String(spec.tmpBytes ?? DEFAULT_TMP_BYTES),
    '--tmpfs',
    '/tmp',
    // null, zero, full, random, urandom, tty and the std streams; no /proc, no /sys.
    '--dev',
    '/dev',
    '--chdir',
    SANDBOX_INPUT,
  );
  return args;
}

/**
 * Wraps a k6 command line (`k6Args`, e.g. `run … archive.tar`) for one run: creates the run's
 * cgroup and returns the command to spawn:
 *
 *   sh (joins the run's cgroups, or exits 125) → setpriv (drops to the sandbox user, sets the
 *   parent-death signal again since a uid change clears it) → bwrap → k6
 *
 * Throws SandboxUnavailableError when bwrap, setpriv or writable cgroups are missing: a user
 * script never runs unconfined or unlimited.
 */
export async function sandboxK6(spec: SandboxSpec, k6Args: string[]): Promise<SandboxedCommand> {
  const tools = sandboxTools();
  const libs = sharedLibraries(spec.k6Bin);
  const { uid, gid } = sandboxIds();
  const cgroup = await RunCgroup.create(spec, spec.cgroupParent);
  const procs = cgroup.procsFiles();
  const join_ =
    'for f do [ "$f" = -- ] && break; ' +
    'echo $$ > "$f" || { echo "poolbench: cannot join the run cgroup $f" >&2; exit 125; }; shift; done; ' +
    'shift; exec "$@"';
  const dropPrivileges =
    process.getuid?.() === 0
      ? [
          tools.setpriv,
          `--reuid=${uid}`,
          `--regid=${gid}`,
          '--clear-groups',
          '--no-new-privs',
          '--pdeathsig',
          'KILL',
          '--',
        ]
      : [tools.setpriv, '--no-new-privs', '--pdeathsig', 'KILL', '--'];
  const args = [
    '-c',
    join_,
    'poolbench-sandbox',
    ...procs,
    '--',
    ...dropPrivileges,
    tools.bwrap,
    ...bwrapArgs(spec, libs),
    '--',
    SANDBOX_K6,
    ...k6Args,
  ];
  return {
    cmd: tools.sh,
    args,
    env: { ...spec.env, ...ENFORCED_ENV },
    cgroup,
    signal(sig, groupLeader) {
      const toGroup = () => {
        if (groupLeader === undefined) return;
        try {
          process.kill(-groupLeader, sig);
        } catch {
          // the group is gone
        }
      };
      if (sig === 'SIGKILL') {
        toGroup();
        cgroup.kill('SIGKILL');
        return;
      }
      if (cgroup.kill(sig, true) === 0) toGroup();
    },
    report: () => cgroup.report(uid),
    cleanup: () => cgroup.cleanup(),
  };
}

/** A line for the run's error report when the sandbox's limits ended it. */
export function limitMessages(report: SandboxReport): string[] {
  const out: string[] = [];
  const mib = (n: number) => `${Math.round((n / 1024 / 1024) * 10) / 10} MiB`;
  if (report.oomKilled)
    out.push(
      `poolbench: the sandbox's memory limit (${mib(report.memoryLimitBytes)}) was reached: ` +
        'the kernel killed k6 (out of memory)',
    );
  if (report.pidsLimitHit)
    out.push(
      `poolbench: the sandbox's task limit (${report.pidsMax} processes/threads) was reached`,
    );
  return out;
}
