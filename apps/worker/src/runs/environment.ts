import { execFile } from 'node:child_process';
import { cpus, hostname, loadavg, release, totalmem } from 'node:os';
import { promisify } from 'node:util';
import { pinsForRecord } from '../targets/resolve-and-pin';
import type { PreparedTarget } from './prepare-target';
import type { RunDeps } from './run-deps';

const pExecFile = promisify(execFile);
const versions = new Map<string, string>();

async function versionOf(bin: string, args: string[]): Promise<string> {
  const key = `${bin} ${args.join(' ')}`;
  const hit = versions.get(key);
  if (hit) return hit;
  try {
    const { stdout } = await pExecFile(bin, args, { timeout: 10_000 });
    const v = stdout.trim().split('\n').slice(0, 3).join(' | ');
    versions.set(key, v);
    return v;
  } catch (err) {
    return `unknown (${(err as Error).message.split('\n')[0]})`;
  }
}

/**
 * What a reader needs to judge whether two runs are comparable: the tools' versions and the
 * machine (CPU model and count, memory, load when the run started).
 */
async function environmentFingerprint(opts: {
  k6Bin: string;
  labTargetBin?: string;
  workerId: string;
  poolbenchVersion: string;
}) {
  const c = cpus();
  const [k6, lab] = await Promise.all([
    versionOf(opts.k6Bin, ['version']),
    opts.labTargetBin ? versionOf(opts.labTargetBin, ['version']) : Promise.resolve(null),
  ]);
  return {
    poolbenchVersion: opts.poolbenchVersion,
    k6Version: k6,
    labTargetVersion: lab,
    nodeVersion: process.version,
    workerId: opts.workerId,
    host: hostname(),
    kernel: release(),
    cpuModel: c[0]?.model ?? 'unknown',
    cpuCount: c.length,
    memoryBytes: totalmem(),
    loadAvg1mAtStart: Number(loadavg()[0]!.toFixed(2)),
    startedAt: new Date().toISOString(),
  };
}

/**
 * The environment a run records when its load starts, a single run's and a distributed run's
 * alike: the fingerprint, what served the load (a Java, Bun or PHP run names its runtime, not the
 * Go binary), the addresses its hosts were pinned to and the CPUs k6 and the target got.
 */
export async function runEnvironment(
  deps: Pick<RunDeps, 'workerId'> & {
    config: Pick<RunDeps['config'], 'k6Bin' | 'labTargetBin' | 'poolbenchVersion'>;
  },
  run: { target: { kind: string } },
  target: Pick<PreparedTarget, 'versions' | 'network' | 'isolation'>,
) {
  const environment = await environmentFingerprint({
    k6Bin: deps.config.k6Bin,
    labTargetBin: run.target.kind === 'managed' ? deps.config.labTargetBin : undefined,
    workerId: deps.workerId,
    poolbenchVersion: deps.config.poolbenchVersion,
  });
  return {
    ...environment,
    ...(target.versions
      ? { labTargetVersion: target.versions.labTarget, components: target.versions }
      : {}),
    network: { pins: pinsForRecord(target.network) },
    cpuIsolation: target.isolation,
  };
}
