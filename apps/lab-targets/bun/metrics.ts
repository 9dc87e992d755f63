// Prometheus text with the lab target's metric names (apps/lab-targets/go/README.md#metrics), kept by
// the server itself: Bun.sql exposes no pool statistics, so connections are counted from its
// onconnect/onclose callbacks and leases from the server's own reserve() calls.
const WAIT_BUCKETS = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];
const HTTP_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

class Histogram {
  counts: number[];
  sum = 0;
  count = 0;
  constructor(readonly buckets: number[]) {
    this.counts = buckets.map(() => 0);
  }
  observe(v: number) {
    this.sum += v;
    this.count++;
    for (let i = 0; i < this.buckets.length; i++) if (v <= this.buckets[i]!) this.counts[i]!++;
  }
  render(name: string, labels: string, out: string[]) {
    const sep = labels ? ',' : '';
    this.buckets.forEach((b, i) =>
      out.push(`${name}_bucket{${labels}${sep}le="${b}"} ${this.counts[i]}`),
    );
    out.push(`${name}_bucket{${labels}${sep}le="+Inf"} ${this.count}`);
    out.push(`${name}_sum{${labels}} ${this.sum}`);
    out.push(`${name}_count{${labels}} ${this.count}`);
  }
}

interface PoolStats {
  open: number;
  inUse: number;
  waiting: number;
  max: number;
  acquires: number;
  emptyAcquires: number;
  timeouts: number;
  created: number;
  closed: number;
  wait: Histogram;
}

export class Metrics {
  private pools = new Map<string, PoolStats>();
  private dbErrors = new Map<string, number>();
  private tooMany = 0;
  private http = new Map<string, Histogram>();
  private ready = 0;

  private pool(name: string): PoolStats {
    let p = this.pools.get(name);
    if (!p) {
      p = {
        open: 0,
        inUse: 0,
        waiting: 0,
        max: 0,
        acquires: 0,
        emptyAcquires: 0,
        timeouts: 0,
        created: 0,
        closed: 0,
        wait: new Histogram(WAIT_BUCKETS),
      };
      this.pools.set(name, p);
    }
    return p;
  }
  setMax(pool: string, n: number) {
    this.pool(pool).max = n;
  }
  connOpened(pool: string) {
    const p = this.pool(pool);
    p.open++;
    p.created++;
  }
  connClosed(pool: string) {
    const p = this.pool(pool);
    p.open = Math.max(0, p.open - 1);
    p.closed++;
  }
  waiting(pool: string, d: number) {
    this.pool(pool).waiting += d;
  }
  inUse(pool: string) {
    return this.pool(pool).inUse;
  }
  acquired(pool: string, d: number, waitS?: number, hadToWait?: boolean) {
    const p = this.pool(pool);
    p.inUse += d;
    if (d > 0) {
      p.acquires++;
      if (hadToWait) p.emptyAcquires++;
      if (waitS !== undefined) p.wait.observe(waitS);
    }
  }
  acquireTimeout(pool: string) {
    const p = this.pool(pool);
    p.timeouts++;
    p.emptyAcquires++;
  }
  dbError(state: string) {
    this.dbErrors.set(state, (this.dbErrors.get(state) ?? 0) + 1);
  }
  tooManyClients() {
    this.tooMany++;
  }
  setReady(r: boolean) {
    this.ready = r ? 1 : 0;
  }
  httpRequest(route: string, code: number, seconds: number) {
    const key = `route="${route}",code="${code}"`;
    let h = this.http.get(key);
    if (!h) this.http.set(key, (h = new Histogram(HTTP_BUCKETS)));
    h.observe(seconds);
  }

  render(): string {
    const out: string[] = [];
    const gauge = (name: string, help: string, f: (p: PoolStats) => number, type = 'gauge') => {
      out.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
      for (const [n, p] of this.pools) out.push(`${name}{pool="${n}"} ${f(p)}`);
    };
    gauge('labtarget_pool_total_conns', 'open connections', (p) => p.open);
    gauge('labtarget_pool_idle_conns', 'open connections not leased', (p) =>
      Math.max(0, p.open - p.inUse),
    );
    gauge('labtarget_pool_acquired_conns', 'leased connections', (p) => p.inUse);
    gauge('labtarget_pool_max_conns', 'pool limit', (p) => p.max);
    gauge('labtarget_pool_waiting_requests', 'leases in progress', (p) => p.waiting);
    gauge('labtarget_pool_acquire_total', 'successful leases', (p) => p.acquires, 'counter');
    gauge(
      'labtarget_pool_empty_acquire_total',
      'leases that had to wait',
      (p) => p.emptyAcquires,
      'counter',
    );
    gauge(
      'labtarget_pool_acquire_timeout_total',
      'leases that hit --acquire-timeout',
      (p) => p.timeouts,
      'counter',
    );
    gauge('labtarget_pool_conns_created_total', 'connections opened', (p) => p.created, 'counter');
    gauge('labtarget_pool_conns_closed_total', 'connections closed', (p) => p.closed, 'counter');
    out.push(
      '# HELP labtarget_pool_acquire_wait_seconds time to lease a connection',
      '# TYPE labtarget_pool_acquire_wait_seconds histogram',
    );
    for (const [n, p] of this.pools)
      p.wait.render('labtarget_pool_acquire_wait_seconds', `pool="${n}"`, out);
    out.push('# TYPE labtarget_db_errors_total counter');
    for (const [s, n] of this.dbErrors) out.push(`labtarget_db_errors_total{sqlstate="${s}"} ${n}`);
    out.push(
      '# TYPE labtarget_db_too_many_clients_total counter',
      `labtarget_db_too_many_clients_total ${this.tooMany}`,
    );
    out.push('# TYPE labtarget_http_request_duration_seconds histogram');
    for (const [k, h] of this.http) h.render('labtarget_http_request_duration_seconds', k, out);
    out.push('# TYPE labtarget_ready gauge', `labtarget_ready ${this.ready}`);
    const cpu = process.cpuUsage();
    out.push(
      '# TYPE process_cpu_seconds_total counter',
      `process_cpu_seconds_total ${(cpu.user + cpu.system) / 1e6}`,
    );
    out.push(
      '# TYPE process_resident_memory_bytes gauge',
      `process_resident_memory_bytes ${process.memoryUsage().rss}`,
    );
    return out.join('\n') + '\n';
  }
}
