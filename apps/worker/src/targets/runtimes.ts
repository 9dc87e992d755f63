import { existsSync } from 'node:fs';
import type { LabEnvironment, Runtime } from '@poolbench/contracts';
import { RunError } from '../runs/run-error';

/** Where each runtime's program is (env.ts defaults: the repo's builds; docs/runtimes.md). */
export interface RuntimeBins {
  labTargetBin: string;
  javaBin: string;
  hikariJar: string;
  bunBin: string;
  bunServer: string;
  phpLauncher: string;
}

export interface RuntimeLauncher {
  /** program and the arguments before the pool flags (`… serve`) */
  cmd: string;
  prefix: string[];
  /** the Go target's blob store for POST /upload: only where /upload exists */
  withBlobstore: boolean;
}

function need(path: string, what: string, how: string): string {
  if (path.includes('/') && !existsSync(path))
    throw new RunError(
      'target_setup_failed',
      `the ${what} is missing on this worker (${path}); ${how}`,
    );
  return path;
}

/** How one instance of the runtime is started: every runtime takes the lab target's `serve` flags. */
export function runtimeLauncher(
  runtime: Runtime,
  env: LabEnvironment,
  bins: RuntimeBins,
): RuntimeLauncher {
  switch (runtime) {
    case 'go':
      return { cmd: bins.labTargetBin, prefix: ['serve'], withBlobstore: true };
    case 'java-hikari':
      return {
        cmd: bins.javaBin,
        // C1 only: a JVM that starts in about a second, as a container with a small CPU budget would run it.
        prefix: [
          '-XX:+UseSerialGC',
          '-XX:TieredStopAtLevel=1',
          '-Xms64m',
          ...(env.cpuLimit !== undefined ? [`-XX:ActiveProcessorCount=${env.cpuLimit}`] : []),
          '-jar',
          need(bins.hikariJar, 'java-hikari jar', 'run scripts/setup.sh (it builds it with Maven)'),
          'serve',
        ],
        withBlobstore: false,
      };
    case 'bun':
      return {
        cmd: need(bins.bunBin, 'bun binary', 'run scripts/setup.sh (npm installs it)'),
        prefix: [need(bins.bunServer, 'bun lab target', 'check out apps/lab-targets/bun'), 'serve'],
        withBlobstore: false,
      };
    case 'php-fpm':
      return {
        cmd: need(bins.phpLauncher, 'php-fpm lab target', 'check out apps/lab-targets/php-fpm'),
        prefix: ['serve'],
        withBlobstore: false,
      };
  }
}
