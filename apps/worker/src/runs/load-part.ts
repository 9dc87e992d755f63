import type { Logger } from 'pino';
import type { RunDelivery } from '@poolbench/contracts';
import { runK6, type K6RunResult, type RunK6Options } from '@poolbench/k6';
import type { WorkerMetrics } from '../ops/ops-server';
import type { ProcessRegistry } from '../targets/process-registry';
import { startDisturbance, type Disturbance } from './disturbance';

export interface LoadPartInput {
  runId: string;
  log: Logger;
  registry: ProcessRegistry;
  metrics: WorkerMetrics;
  /** when the run was queued: its first second then measures enqueue-to-first-request */
  queuedAt?: Date;
  /** other worker processes on this machine whose CPU is the run's own (its other generators) */
  alsoOurs?: readonly number[];
  /** also told k6's pid once it started (a generator watches its CPU) */
  onSpawn?: (pid: number) => void;
  k6: Omit<RunK6Options, 'onSpawn' | 'k6Bin'> & { k6Bin: string };
}

export interface LoadPart {
  result: K6RunResult;
  /** what else used this machine's CPU while k6 ran */
  disturbance: Disturbance | null;
  /** how k6's samples reached the output; null when its output did not end cleanly */
  delivery: RunDelivery | null;
}

/**
 * The load part of a run, the same for a single run and each generator of a distributed one:
 * k6 with its pid in the process registry, the CPU used beside it while it ran, the
 * worker's late-sample and enqueue-to-first-request metrics, and the output's delivery record.
 */
export async function runLoadPart(input: LoadPartInput): Promise<LoadPart> {
  const { k6, registry } = input;
  const during = startDisturbance();
  let k6Pid: number | undefined;
  let first = true;
  try {
    const result = await runK6({
      ...k6,
      onSpawn: ({ pid }) => {
        k6Pid = pid;
        input.log.info({ pid }, 'k6 started');
        registry.add({ pid, ownerPid: process.pid, runId: input.runId, kind: 'k6', exe: k6.k6Bin });
        input.onSpawn?.(pid);
      },
      onSecond: (bucket) => {
        if (first && input.queuedAt)
          input.metrics.enqueueToFirstRequest.observe(
            (Date.now() - input.queuedAt.getTime()) / 1000,
          );
        first = false;
        return k6.onSecond?.(bucket);
      },
    });
    input.metrics.lateSamples.inc(result.lateSamples);
    return { result, disturbance: during.stop(input.alsoOurs), delivery: deliveryOf(result) };
  } finally {
    if (k6Pid) registry.remove(k6Pid);
  }
}

/** The output's record of late samples, when k6's output ended cleanly (else nothing to say). */
function deliveryOf(
  k6: Partial<
    Pick<
      K6RunResult,
      'outputComplete' | 'lateSamples' | 'lateRequests' | 'maxSampleLagMs' | 'outputGraceMs'
    >
  >,
): RunDelivery | null {
  return k6.outputComplete
    ? {
        lateSamples: k6.lateSamples ?? 0,
        lateRequests: k6.lateRequests ?? 0,
        maxLagMs: k6.maxSampleLagMs ?? null,
        graceMs: k6.outputGraceMs ?? null,
      }
    : null;
}
