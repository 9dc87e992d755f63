import type { ComponentVersions } from '../targets/component-versions';
import { LAB_SETUP, openSecret, type ParsedTarget, type Run, type Target } from '@poolbench/db';
import {
  databaseOf,
  labDataCellsCap,
  labDataTooLarge,
  type PoolConfig,
} from '@poolbench/scenarios';
import { type LabEnvironment } from '@poolbench/contracts';
import { RunError } from './run-error';
import { planCpuIsolation, targetCpus, type CpuIsolation } from './cpu-isolation';
import { checkMonitorDsn } from '../targets/monitor-dsn';
import { resolveAndPin, type RunNetworkPlan } from '../targets/resolve-and-pin';
import { ensureLabData, forgetLabData, labDataUrl, type LabSetup } from '../targets/managed-target';
import { recordShapeOwner } from '../targets/lab-shapes';
import {
  labDatabaseUrlFor,
  runEnvironment,
  startLabTarget,
  type LabTargetDeps,
} from '../targets/start-lab-target';
import type { ProcessRegistry } from '../targets/process-registry';
import { prepareUrlTarget } from '../targets/url-target';
import { pinManagedUrls } from './distributed/pin-managed-urls';
import { DbActivityMonitor, type DbActivitySource } from '../sampling/db-activity';
import { MariaDbActivityMonitor } from '../sampling/mariadb-activity';
import type { SampleSource } from '../sampling/resource-sampler';

export interface PreparedTarget {
  baseUrls: string[];
  /** resolved, checked and pinned once: every connection of the run goes to these addresses */
  network: RunNetworkPlan;
  sources: SampleSource[];
  monitor: DbActivitySource | null;
  secretHeaders: Record<string, string>;
  /** stops what was started for the run (managed targets); a no-op for URL targets */
  stop: () => Promise<void>;
  /** managed targets: the versions of the runtime, nginx and database server that served the run */
  versions?: ComponentVersions;
  /** the CPUs k6 and the target got (recorded with the run's environment) */
  isolation: CpuIsolation;
}

export interface PrepareDeps extends Pick<LabTargetDeps, 'labMariadbUrl' | 'runtimeBins'> {
  labTargetBin: string;
  labDatabaseUrl: string;
  readyTimeoutMs: number;
  registry: ProcessRegistry;
  /** PoolBench's own database: a monitor DSN may never point at it */
  ownDatabaseUrl: string;
  /** distributed runs: managed targets listen here (WORKER_ADVERTISE_HOST) so other workers' k6 reach them */
  listenHost?: string;
}

type RunWithTarget = Pick<Run, 'id'> & {
  target: ParsedTarget<Target>;
  team: { allowedHosts: { pattern: string }[] };
  /** the installation's opened ranges (`openedRanges`): a team entry reaches special addresses only inside them */
  openedRanges: string[];
  /** this installation (`installationId`): recorded on the lab shape databases its runs set up */
  installation: string;
};

/**
 * Gets the run's target ready for load: a managed target is started by us with the pool config (so
 * a cold start is a real cold start); a URL target is prepared through its apply hook and
 * readiness path. Either way the addresses are checked against the team's allowlist before any load.
 */
export async function prepareTarget(
  run: RunWithTarget,
  poolConfig: PoolConfig,
  deps: PrepareDeps,
  signal: AbortSignal,
): Promise<PreparedTarget> {
  return run.target.kind === 'managed'
    ? prepareManaged(run, poolConfig, deps, signal)
    : prepareUrl(run, poolConfig, deps, signal);
}

/**
 * The run's lab data, set up if needed: its shape's database on the lab server the environment
 * reads (labDataUrl). Returns that database's URL and the lab URLs to start the target with.
 */
export async function prepareLabData(
  deps: Pick<LabTargetDeps, 'labTargetBin' | 'labDatabaseUrl' | 'labMariadbUrl'>,
  environment: LabEnvironment,
  setup: LabSetup,
  signal?: AbortSignal,
  /** this installation (installationId): recorded as an owner of a shape database it sets up */
  installation?: string,
) {
  const urls = {
    labDatabaseUrl: labDataUrl(deps.labDatabaseUrl, setup, 'postgres'),
    labMariadbUrl: labDataUrl(deps.labMariadbUrl, setup, 'mariadb'),
  };
  const databaseUrl = labDatabaseUrlFor(environment, urls);
  const baseUrl = labDatabaseUrlFor(environment, deps);
  const server = databaseOf(environment);
  for (let attempt = 0; ; attempt++) {
    const setUp = await ensureLabData(deps.labTargetBin, databaseUrl, setup, signal);
    if (!setUp || !installation || databaseUrl === baseUrl) break;
    try {
      await recordShapeOwner({ server, baseUrl, shapeUrl: databaseUrl, installation });
      break;
    } catch (err) {
      // dropped by another installation's sweep between set-up and record: set it up again
      forgetLabData(databaseUrl, setup);
      if (attempt > 0)
        throw new RunError(
          'target_setup_failed',
          `lab data set-up failed: ${(err as Error).message}`,
        );
    }
  }
  return { urls, databaseUrl };
}

async function prepareManaged(
  run: RunWithTarget,
  poolConfig: PoolConfig,
  deps: PrepareDeps,
  signal: AbortSignal,
): Promise<PreparedTarget> {
  const setup: LabSetup = { ...LAB_SETUP, ...run.target.managed?.setup };
  // a target saved before the installation lowered its cap gets no database of that size
  const tooLarge = labDataTooLarge(setup, labDataCellsCap(process.env));
  if (tooLarge) throw new RunError('lab_data_too_large', tooLarge);
  // The target's environment (runtime, database, link RTT, role limit, CPU, nginx) with the pool config's overrides.
  const environment = runEnvironment(run.target.managed?.environment, poolConfig);
  const lab = await prepareLabData(deps, environment, setup, signal, run.installation);
  const databaseUrl = lab.databaseUrl;
  const isolation = planCpuIsolation({ setting: environment.cpuIsolation });
  const started = await startLabTarget(
    run,
    environment,
    poolConfig,
    { ...deps, ...lab.urls, targetCpus: targetCpus(isolation) },
    signal,
  );
  try {
    const baseUrls = started.loadUrls;
    const network = await pinManagedUrls(baseUrls);
    return {
      baseUrls,
      network,
      sources: started.instances.map((i) => ({
        index: i.index,
        pid: i.child.pid,
        metricsUrl: `${i.baseUrl}/metrics`,
      })),
      monitor: started.mariadbUser
        ? new MariaDbActivityMonitor(databaseUrl, started.mariadbUser)
        : new DbActivityMonitor(databaseUrl, `pb-${run.id.slice(-10)}-`),
      secretHeaders: {},
      stop: started.stop,
      versions: started.versions,
      isolation,
    };
  } catch (err) {
    await started.stop().catch(() => {});
    throw err;
  }
}

async function prepareUrl(
  run: RunWithTarget,
  poolConfig: PoolConfig,
  deps: PrepareDeps,
  signal: AbortSignal,
): Promise<PreparedTarget> {
  const baseUrls = run.target.baseUrls;
  const patterns = run.team.allowedHosts.map((h) => h.pattern);
  // The apply hook and the metrics endpoint are called by the worker too: same allowlist, same pins.
  const sideUrls = (['applyHookUrl', 'metricsUrl'] as const).flatMap((f) =>
    run.target[f] ? [[f, run.target[f]] as [string, string]] : [],
  );
  const network = await resolveAndPin({
    loadUrls: baseUrls.map((u, i) => [`baseUrls.${i}`, u]),
    probeUrls: sideUrls,
    patterns,
    opened: run.openedRanges,
  });
  let secrets: { headers?: Record<string, string>; monitorDsn?: string } = {};
  if (run.target.secretsEncrypted) {
    try {
      secrets = openSecret(run.target.secretsEncrypted);
    } catch (err) {
      throw new RunError(
        'secret_unavailable',
        `the target's secrets cannot be opened on this worker (${(err as Error).message}); check POOLBENCH_SECRET_KEY`,
      );
    }
  }
  let monitor: DbActivityMonitor | null = null;
  if (secrets.monitorDsn) {
    const checked = await checkMonitorDsn(secrets.monitorDsn, {
      patterns,
      opened: run.openedRanges,
      ownDatabaseUrl: deps.ownDatabaseUrl,
    });
    network.pins.push(checked.pin);
    monitor = new DbActivityMonitor(checked.config, null);
  }
  await prepareUrlTarget({
    baseUrls,
    applyHookUrl: run.target.applyHookUrl,
    readinessPath: run.target.readinessPath,
    poolConfig,
    headers: secrets.headers ?? {},
    pins: network.pins,
    readyTimeoutMs: deps.readyTimeoutMs,
    signal,
  });
  return {
    baseUrls,
    network,
    sources: run.target.metricsUrl
      ? [{ index: 0, metricsUrl: run.target.metricsUrl, pins: network.pins }]
      : [],
    monitor,
    secretHeaders: secrets.headers ?? {},
    stop: async () => {},
    isolation: { mode: 'unavailable', reason: "URL target: its processes are not the worker's" },
  };
}
