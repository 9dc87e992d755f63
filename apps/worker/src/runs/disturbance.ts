import { readdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';

/** Kernel clock ticks per second of /proc's CPU times (USER_HZ; 100 on Linux). */
const TICKS = 100;
/** Database servers: their work serves the run's target, it is not a disturbance. */
const DATABASE_SERVERS = new Set(['postgres', 'mariadbd', 'mysqld']);

type Procs = Map<number, { comm: string; ppid: number; ticks: number }>;

interface Snapshot {
  atMs: number;
  /** /proc/stat "cpu": busy (all but idle and iowait) and steal ticks over every core */
  busy: number;
  steal: number;
  total: number;
  /** every live process: the run's own trees are summed from it when the window closes */
  procs: Procs;
  /** database server processes with the children they reaped (backends that ended), ticks */
  databases: number;
}

// a type, not an interface: it is stored as a JSON column, whose schema reads any object
export type Disturbance = {
  /** CPU used during the run by everything but this worker, what it started and the database
   * servers, in % of one core (200 = two cores busy) */
  outsideCpuPercent: number;
  /** the whole machine's CPU, % of one core */
  machineCpuPercent: number;
  /** time the hypervisor gave to other guests, % of the machine */
  stealPercent: number;
  cores: number;
  loadAvg1mAtEnd: number;
  seconds: number;
  /** other processes of this run on the machine whose CPU counted as the run's own: the other
   * load generators of a distributed run that share it (absent when none) */
  sharedWith?: number;
};

function procStat(): { busy: number; steal: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
  const f = line.trim().split(/\s+/).slice(1).map(Number);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = f as number[];
  const busy = user! + nice! + system! + irq! + softirq!;
  return { busy, steal: steal ?? 0, total: busy + idle! + iowait! + (steal ?? 0) };
}

/**
 * utime + stime + cutime + cstime of a process (fields 14-17 of /proc/<pid>/stat: its own CPU and
 * that of the children it reaped), its name and its parent.
 */
function pidTimes(pid: number): { comm: string; ppid: number; ticks: number } | null {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = s.lastIndexOf(')');
    const comm = s.slice(s.indexOf('(') + 1, close);
    const f = s.slice(close + 2).split(' ');
    // f[0] is field 3 (state), f[1] field 4 (ppid), f[11] field 14 (utime)
    return {
      comm,
      ppid: Number(f[1]),
      ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]),
    };
  } catch {
    return null; // gone
  }
}

function snapshot(): Snapshot {
  const stat = procStat();
  const procs: Procs = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const t = pidTimes(Number(name));
    if (t) procs.set(Number(name), t);
  }
  let databases = 0;
  for (const t of procs.values()) if (DATABASE_SERVERS.has(t.comm)) databases += t.ticks;
  return { atMs: Date.now(), ...stat, procs, databases };
}

/** CPU ticks of the given processes and their live descendants (a child that ended is in its
 * parent's cutime). */
function treeTicks(procs: Procs, roots: readonly number[]): number {
  const mine = new Set(roots.filter((pid) => procs.has(pid)));
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, t] of procs)
      if (!mine.has(pid) && mine.has(t.ppid)) {
        mine.add(pid);
        grew = true;
      }
  }
  let ticks = 0;
  for (const pid of mine) ticks += procs.get(pid)!.ticks;
  return ticks;
}

/**
 * Measures how much else ran on the machine while a run ran: from /proc/stat, minus this
 * worker's own CPU and its reaped children (k6 and the target, counted when they exit), minus the
 * database servers (the target's work). Read at the start; `stop()` after k6 and the target ended.
 * Processes that started and ended inside the window count as outside unless they were ours or a
 * database's, so a short-lived neighbour is caught too. `stop(alsoOurs)` counts those worker
 * processes and their trees as the run's own as well: the other load generators of a distributed
 * run on this machine, whose k6 (and, for the first, the managed target) is the run's load, not a
 * disturbance of it.
 */
export function startDisturbance(): {
  openedAtMs: number;
  stop(alsoOurs?: readonly number[]): Disturbance | null;
} {
  let start: Snapshot | null = null;
  try {
    start = snapshot();
  } catch {
    start = null; // not Linux, or /proc unreadable: nothing to say
  }
  return {
    // when the first reading ended: the window stop() measures starts here
    openedAtMs: start?.atMs ?? Date.now(),
    stop(alsoOurs = []) {
      if (!start) return null;
      let end: Snapshot;
      try {
        end = snapshot();
      } catch {
        return null;
      }
      const seconds = (end.atMs - start.atMs) / 1000;
      if (seconds <= 0) return null;
      const pct = (ticks: number) => +((100 * ticks) / TICKS / seconds).toFixed(1);
      const busy = end.busy - start.busy;
      const others = alsoOurs.filter(
        (pid) => pid !== process.pid && (start.procs.has(pid) || end.procs.has(pid)),
      );
      const roots = [process.pid, ...others];
      const ours =
        treeTicks(end.procs, roots) -
        treeTicks(start.procs, roots) +
        (end.databases - start.databases);
      return {
        outsideCpuPercent: Math.max(0, pct(busy - ours)),
        machineCpuPercent: pct(busy),
        stealPercent:
          end.total > start.total
            ? +((100 * (end.steal - start.steal)) / (end.total - start.total)).toFixed(1)
            : 0,
        cores: cpus().length,
        loadAvg1mAtEnd: Number(loadavg()[0]!.toFixed(2)),
        seconds: +seconds.toFixed(1),
        ...(others.length ? { sharedWith: others.length } : {}),
      };
    },
  };
}

/** The shortest window the CPU before a run is judged over: /proc's times move in 10 ms ticks. */
export const BEFORE_START_MIN_MS = 500;

/**
 * Ends the window opened when the run was claimed, just before its load starts: CPU
 * used outside the run while it was prepared (target started, checked, pinned). A 1-minute load
 * average would also count this worker's previous runs, minutes after they ended; this counts only
 * others. A preparation shorter than BEFORE_START_MIN_MS waits out the rest first, so the window is
 * long enough to mean something and /proc is read once.
 */
export async function disturbanceBeforeStart(
  window: ReturnType<typeof startDisturbance>,
  signal: AbortSignal,
  alsoOurs: readonly number[] = [],
): Promise<{ outsideCpuPercent: number; seconds: number } | null> {
  const wait = BEFORE_START_MIN_MS - (Date.now() - window.openedAtMs);
  if (wait > 0 && !signal.aborted)
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, wait);
      signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
    });
  const d = window.stop(alsoOurs);
  return d ? { outsideCpuPercent: d.outsideCpuPercent, seconds: d.seconds } : null;
}
