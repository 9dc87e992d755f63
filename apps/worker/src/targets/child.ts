import { spawn, type ChildProcess } from 'node:child_process';
import { dieWithParent, onCpus } from '@poolbench/k6';
import type { ProcessRegistry } from './process-registry';

export interface ManagedChild {
  proc: ChildProcess;
  pid: number;
  /** last lines of stderr+stdout, for error messages */
  tail(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM to the process group, SIGKILL after graceMs. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Spawns a child in its own process group (detached), records it in the registry, and keeps a
 * small tail of its output. stop() ends the whole group so grandchildren go too.
 */
export function spawnManaged(
  cmd: string,
  args: string[],
  opts: {
    registry: ProcessRegistry;
    runId: string;
    kind: string;
    env?: NodeJS.ProcessEnv;
    /** CPUs it and its children run on (kernel cpu list, via taskset); absent = any */
    cpus?: string;
  },
): ManagedChild {
  // Its own group (stop() ends grandchildren too), SIGKILL from the kernel if the worker dies,
  // and, when the run isolates the target, only the target's CPUs.
  const dying = dieWithParent(cmd, args);
  const wrapped = onCpus(dying.cmd, dying.args, opts.cpus);
  const proc = spawn(wrapped.cmd, wrapped.args, {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: opts.env ?? process.env,
  });
  if (proc.pid === undefined) {
    throw new Error(`could not start ${cmd}`);
  }
  const pid = proc.pid;
  opts.registry.add({ pid, ownerPid: process.pid, runId: opts.runId, kind: opts.kind, exe: cmd });
  const lines: string[] = [];
  const keep = (buf: Buffer) => {
    for (const l of buf.toString('utf8').split('\n')) if (l.trim()) lines.push(l);
    if (lines.length > 40) lines.splice(0, lines.length - 40);
  };
  proc.stdout?.on('data', keep);
  proc.stderr?.on('data', keep);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    proc.on('exit', (code, signal) => {
      opts.registry.remove(pid);
      resolve({ code, signal });
    });
    proc.on('error', (err) => {
      lines.push(String(err.message));
      opts.registry.remove(pid);
      resolve({ code: -1, signal: null });
    });
  });
  let done = false;
  void exited.then(() => {
    done = true;
  });
  return {
    proc,
    pid,
    tail: () => lines.slice(-10).join('\n'),
    exited,
    async stop(graceMs = 3000) {
      if (done) return;
      try {
        process.kill(-pid, 'SIGTERM');
      } catch {
        // gone
      }
      const timer = setTimeout(() => {
        try {
          process.kill(-pid, 'SIGKILL');
        } catch {
          // gone
        }
      }, graceMs);
      await exited;
      clearTimeout(timer);
      // The leader is gone; make sure nothing it started lingers in its group.
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // group empty
      }
    },
  };
}
