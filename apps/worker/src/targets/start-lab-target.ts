import { componentVersions, type ComponentVersions } from './component-versions';
import {
  databaseOf,
  runtimeArgs,
  runtimeOf,
  runtimeProblems,
  type PoolConfig,
} from '@poolbench/scenarios';
import {
  LabEnvironmentSchema,
  resolveLabEnvironment,
  type LabEnvironment,
} from '@poolbench/contracts';
import { RunError } from '../runs/run-error';
import { startLabEnvironment } from './lab-environment';
import { startManagedTarget, type StartedManagedTarget } from './managed-target';
import type { ProcessRegistry } from './process-registry';
import { runtimeLauncher, type RuntimeBins } from './runtimes';

export interface LabTargetDeps {
  labTargetBin: string;
  labDatabaseUrl: string;
  /** the MariaDB lab database (an admin URL: the worker creates a user per run) */
  labMariadbUrl: string;
  runtimeBins: RuntimeBins;
  readyTimeoutMs: number;
  registry: ProcessRegistry;
  nginxBin?: string;
  listenHost?: string;
  /** CPUs for the target's processes when the run isolates it from k6 (kernel cpu list) */
  targetCpus?: string;
}

/** The run's environment: the target's stored settings (parsed where read) with the pool config's overrides. */
export function runEnvironment(targetEnvironment: unknown, poolConfig: PoolConfig): LabEnvironment {
  // Stored JSON is parsed where it is read: a target saved by an older version must not slip through.
  const stored = LabEnvironmentSchema.safeParse(targetEnvironment ?? {});
  if (!stored.success) {
    const why = stored.error.issues
      .map((i) => `environment.${i.path.join('.')}: ${i.message}`)
      .join('; ');
    throw new RunError(
      'invalid_snapshot',
      `the target's environment is invalid (${why}); edit the target`,
    );
  }
  const environment = resolveLabEnvironment(stored.data, poolConfig.environment);
  // Checked at save and at launch too; a snapshot from before a runtime changed is caught here.
  const problems = runtimeProblems(poolConfig, environment);
  if (problems.length > 0)
    throw new RunError(
      'invalid_snapshot',
      problems.map((p) => `${p.path}: ${p.message}`).join('; '),
    );
  return environment;
}

/** The lab database the run's runtime reads. */
export function labDatabaseUrlFor(
  environment: LabEnvironment,
  deps: Pick<LabTargetDeps, 'labDatabaseUrl' | 'labMariadbUrl'>,
): string {
  return databaseOf(environment) === 'mariadb' ? deps.labMariadbUrl : deps.labDatabaseUrl;
}

/**
 * Starts a managed lab target inside its environment, on its runtime: the target's stored
 * settings with the pool config's overrides on top, set up for this run and torn down with it (stop()).
 */
export async function startLabTarget(
  run: { id: string },
  environment: LabEnvironment,
  poolConfig: PoolConfig,
  deps: LabTargetDeps,
  signal: AbortSignal,
): Promise<StartedManagedTarget & { mariadbUser: string | null; versions: ComponentVersions }> {
  const database = databaseOf(environment);
  const launcher = runtimeLauncher(runtimeOf(environment), environment, deps.runtimeBins);
  const env = await startLabEnvironment({
    bin: deps.labTargetBin,
    runId: run.id,
    databaseUrl: labDatabaseUrlFor(environment, deps),
    database,
    environment,
    registry: deps.registry,
    signal,
    timeoutMs: deps.readyTimeoutMs,
    cpus: deps.targetCpus,
  });
  try {
    const started = await startManagedTarget({
      bin: deps.labTargetBin,
      launcher,
      poolArgs: runtimeArgs(poolConfig, environment),
      runId: run.id,
      databaseUrl: env.databaseUrl,
      instanceCount: poolConfig.instanceCount ?? 1,
      registry: deps.registry,
      readyTimeoutMs: deps.readyTimeoutMs,
      signal,
      blobstoreArgs: env.blobstoreArgs,
      targetEnv: env.targetEnv,
      balancing: environment.balancing,
      nginxBin: deps.nginxBin,
      listenHost: deps.listenHost,
      cpus: deps.targetCpus,
    });
    const versions = await componentVersions({
      runtime: runtimeOf(environment),
      launcher,
      database,
      databaseUrl: env.databaseUrl,
      nginxBin: deps.nginxBin,
      nginxUsed: environment.balancing === 'nginx',
    });
    return {
      ...started,
      versions,
      mariadbUser: env.mariadbUser,
      stop: async () => {
        await started.stop();
        await env.stop();
      },
    };
  } catch (err) {
    await env.stop();
    throw err;
  }
}
