import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Child processes a worker starts (targets, k6) are recorded on disk with the worker's pid.
 * If a worker dies (kill -9), the next worker on the host finds records whose owner is gone and
 * kills those process groups, so no target or k6 outlives the run that started it.
 */
export interface ProcessRecord {
  pid: number;
  ownerPid: number;
  runId: string;
  kind: string;
  /** argv[0] as seen in /proc/<pid>/cmdline, to avoid killing a recycled pid */
  exe: string;
}

const TMP = '.json.tmp';

export class ProcessRegistry {
  constructor(private readonly dir: string) {
    mkdirSync(dir, { recursive: true });
  }

  /**
   * Written whole or not at all: a temp file named by its owner, renamed into place, so a reader
   * never sees half a record. A worker killed before the rename leaves the temp file, which the
   * sweep treats as the record it is (or removes, when the kill cut it short).
   */
  add(rec: ProcessRecord): void {
    const tmp = join(this.dir, `${rec.pid}.${rec.ownerPid}${TMP}`);
    writeFileSync(tmp, JSON.stringify(rec));
    renameSync(tmp, join(this.dir, `${rec.pid}.json`));
  }

  remove(pid: number): void {
    rmSync(join(this.dir, `${pid}.json`), { force: true });
  }

  /** Kills the process groups of records whose owning worker is no longer alive. */
  sweepOrphans(log: (msg: string, rec: ProcessRecord) => void = () => {}): ProcessRecord[] {
    const swept: ProcessRecord[] = [];
    for (const f of readdirSync(this.dir)) {
      const tmp = f.endsWith(TMP);
      if (!tmp && !f.endsWith('.json')) continue;
      // a temp file of a live worker is being written: not this sweep's to read or remove
      const writer = tmp ? Number(f.slice(0, -TMP.length).split('.')[1]) : null;
      if (writer !== null && (writer === process.pid || isAlive(writer))) continue;
      let rec: ProcessRecord;
      try {
        rec = JSON.parse(readFileSync(join(this.dir, f), 'utf8')) as ProcessRecord;
      } catch {
        rmSync(join(this.dir, f), { force: true });
        continue;
      }
      if (rec.ownerPid !== process.pid && isAlive(rec.ownerPid)) continue;
      if (rec.ownerPid === process.pid) continue;
      if (isAlive(rec.pid) && cmdlineStartsWith(rec.pid, rec.exe)) {
        try {
          process.kill(-rec.pid, 'SIGKILL');
        } catch {
          try {
            process.kill(rec.pid, 'SIGKILL');
          } catch {
            // already gone
          }
        }
        log('killed orphaned process left by a dead worker', rec);
        swept.push(rec);
      }
      rmSync(join(this.dir, f), { force: true });
    }
    return swept;
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function cmdlineStartsWith(pid: number, exe: string): boolean {
  try {
    const argv0 = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0] ?? '';
    return argv0 === exe || argv0.endsWith(`/${exe.split('/').pop()}`);
  } catch {
    return false;
  }
}
