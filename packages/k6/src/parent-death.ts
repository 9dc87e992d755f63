import { existsSync } from 'node:fs';

const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'].find((p) => existsSync(p));

/**
 * Wraps a command so the kernel sends it SIGKILL when the process that spawned it dies
 * (prctl PR_SET_PDEATHSIG, set by util-linux `setpriv`, which then execs the command, so the pid
 * and argv[0] are the command's own). A worker killed with -9 can run no cleanup of its own; with
 * this its k6 and target processes die with it instead of loading a target nobody measures.
 * Where setpriv is missing (not Linux) the command runs as it is and the registry sweep of the
 * next worker on the host is the only cleanup.
 */
export function dieWithParent(cmd: string, args: string[]): { cmd: string; args: string[] } {
  if (!SETPRIV || process.platform !== 'linux') return { cmd, args };
  return { cmd: SETPRIV, args: ['--pdeathsig', 'KILL', '--', cmd, ...args] };
}
