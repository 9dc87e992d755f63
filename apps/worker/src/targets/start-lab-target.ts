import { LabEnvironmentSchema, resolveLabEnvironment, type PoolConfig } from '@poolbench/scenarios';
import { RunError } from '../runs/run-error';
import { startLabEnvironment } from './lab-environment';
import { startManagedTarget, type StartedManagedTarget } from './managed-target';
import type { ProcessRegistry } from './process-registry';

/**
 * Starts a managed lab target inside its environment: the target's stored settings with the pool
 * config's overrides on top, set up for this run and torn down with it (stop()).
 */
export async function startLabTarget(
  run: { id: string },
  targetEnvironment: unknown,
  poolConfig: PoolConfig,
  deps: { labTargetBin: string; labDatabaseUrl: string; readyTimeoutMs: number; registry: ProcessRegistry; nginxBin?: string; listenHost?: string },
  signal: AbortSignal,
): Promise<StartedManagedTarget> {
  // Stored JSON is parsed where it is read: a target saved by an older version must not slip through.
  const stored = LabEnvironmentSchema.safeParse(targetEnvironment ?? {});
  if (!stored.success) {
    const why = stored.error.issues.map((i) => `environment.${i.path.join('.')}: ${i.message}`).join('; ');
    throw new RunError('invalid_snapshot', `the target's environment is invalid (${why}); edit the target`);
  }
  const environment = resolveLabEnvironment(stored.data, poolConfig.environment);
  const env = await startLabEnvironment({
    bin: deps.labTargetBin,
    runId: run.id,
    databaseUrl: deps.labDatabaseUrl,
    environment,
    registry: deps.registry,
    signal,
    timeoutMs: deps.readyTimeoutMs,
  });
  try {
    const started = await startManagedTarget({
      bin: deps.labTargetBin,
      runId: run.id,
      databaseUrl: env.databaseUrl,
      poolConfig,
      instanceCount: poolConfig.instanceCount ?? 1,
      registry: deps.registry,
      readyTimeoutMs: deps.readyTimeoutMs,
      signal,
      blobstoreArgs: env.blobstoreArgs,
      targetEnv: env.targetEnv,
      balancing: environment.balancing,
      nginxBin: deps.nginxBin,
      listenHost: deps.listenHost,
    });
    return {
      ...started,
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
