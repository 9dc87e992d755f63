import { createServer, type Server } from 'node:http';
import { Registry, collectDefaultMetrics, Counter, Gauge, Histogram } from 'prom-client';

/** The worker's own Prometheus metrics, served with /healthz on WORKER_HEALTH_PORT. */
export function createWorkerMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'poolbench_worker_' });
  return {
    registry,
    runsFinished: new Counter({
      name: 'poolbench_worker_runs_finished_total',
      help: 'Runs ended by this worker, by final status.',
      labelNames: ['status'],
      registers: [registry],
    }),
    runsActive: new Gauge({
      name: 'poolbench_worker_runs_active',
      help: 'Runs this worker is executing now.',
      registers: [registry],
    }),
    runDuration: new Histogram({
      name: 'poolbench_worker_run_duration_seconds',
      help: 'Wall time of runs from claim to end.',
      buckets: [5, 15, 30, 60, 120, 300, 600, 1800, 3600],
      registers: [registry],
    }),
    enqueueToFirstRequest: new Histogram({
      name: 'poolbench_worker_enqueue_to_load_seconds',
      help: 'Time from a run being queued to k6 starting load.',
      buckets: [0.25, 0.5, 1, 2, 5, 10, 30, 60],
      registers: [registry],
    }),
    lateSamples: new Counter({
      name: 'poolbench_worker_late_samples_total',
      help: 'k6 samples that arrived after their second was closed.',
      registers: [registry],
    }),
    pendingRows: new Gauge({
      name: 'poolbench_worker_pending_rows',
      help: 'Per-second rows buffered because Postgres did not accept them yet.',
      registers: [registry],
    }),
    jobs: new Gauge({
      name: 'poolbench_worker_queue_jobs',
      help: 'Jobs in the run queue by state.',
      labelNames: ['state'],
      registers: [registry],
    }),
  };
}
export type WorkerMetrics = ReturnType<typeof createWorkerMetrics>;

export function startOpsServer(
  port: number,
  metrics: WorkerMetrics,
  health: () => Promise<{ ok: boolean; [k: string]: unknown }>,
): Server {
  const server = createServer((req, res) => {
    void (async () => {
      if (req.url === '/healthz') {
        const h = await health().catch((err: Error) => ({ ok: false, error: err.message }));
        res
          .writeHead(h.ok ? 200 : 503, { 'content-type': 'application/json' })
          .end(JSON.stringify(h));
      } else if (req.url === '/metrics') {
        res
          .writeHead(200, { 'content-type': metrics.registry.contentType })
          .end(await metrics.registry.metrics());
      } else {
        res.writeHead(404).end();
      }
    })();
  });
  server.listen(port, '127.0.0.1');
  server.on('error', () => {
    // Another worker on this host owns the port; this one runs without an ops endpoint.
  });
  return server;
}
