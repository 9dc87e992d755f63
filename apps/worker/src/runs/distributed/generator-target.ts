import { openSecret, type ParsedTarget, type Run, type Target } from '@poolbench/db';
import type { PoolConfig } from '@poolbench/scenarios';
import { RunError } from '../run-error';
import { generatorCpus, planCpuIsolation } from '../cpu-isolation';
import { runEnvironment } from '../../targets/start-lab-target';
import { resolveAndPin, type RunNetworkPlan } from '../../targets/resolve-and-pin';
import { pinManagedUrls } from './pin-managed-urls';

export interface GeneratorTarget {
  baseUrls: string[];
  network: RunNetworkPlan;
  secretHeaders: Record<string, string>;
  /** the CPUs k6 may use here (undefined = any): the leader's split, on the leader's machine */
  cpus?: string;
}

type RunWithTarget = Pick<Run, 'id'> & {
  target: ParsedTarget<Target>;
  team: { allowedHosts: { pattern: string }[] };
  /** the installation's opened ranges (`openedRanges`) */
  openedRanges: string[];
};

/**
 * What a generator other than the leader sends load to. A managed target was started once, by
 * the leader, on its advertised address (segment 0's baseUrls); a URL target is checked against
 * the team's allowlist and pinned again on this worker, as every worker does before any load. The
 * apply hook ran once, on the leader.
 *
 * A generator on the leader's machine shares its CPUs with the managed target, so its k6 goes where
 * the leader's goes: the split `planCpuIsolation` makes of the same setting and the CPUs this
 * worker may use (workers of one machine are started alike). Elsewhere the target is not there.
 */
export async function prepareGeneratorTarget(
  run: RunWithTarget,
  leaderBaseUrls: string[],
  place: { poolConfig: PoolConfig; besideLeader: boolean },
): Promise<GeneratorTarget> {
  if (run.target.kind === 'managed') {
    const setting = runEnvironment(run.target.managed?.environment, place.poolConfig).cpuIsolation;
    return {
      baseUrls: leaderBaseUrls,
      network: await pinManagedUrls(leaderBaseUrls),
      secretHeaders: {},
      cpus: place.besideLeader ? generatorCpus(planCpuIsolation({ setting })) : undefined,
    };
  }
  const patterns = run.team.allowedHosts.map((h) => h.pattern);
  const network = await resolveAndPin({
    loadUrls: run.target.baseUrls.map((u, i) => [`baseUrls.${i}`, u]),
    probeUrls: [],
    patterns,
    opened: run.openedRanges,
  });
  let headers: Record<string, string> = {};
  if (run.target.secretsEncrypted) {
    try {
      headers =
        (openSecret(run.target.secretsEncrypted) as { headers?: Record<string, string> }).headers ??
        {};
    } catch (err) {
      throw new RunError(
        'secret_unavailable',
        `the target's secrets cannot be opened on this worker (${(err as Error).message}); check POOLBENCH_SECRET_KEY`,
      );
    }
  }
  return { baseUrls: run.target.baseUrls, network, secretHeaders: headers };
}
