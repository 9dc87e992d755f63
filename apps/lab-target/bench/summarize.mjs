#!/usr/bin/env node
// Turns the lab-target seed bench's raw results (k6 summaries + a /metrics scrape per run)
// into the markdown section of docs/benchmarks.md: medians with min–max spread per
// configuration, and a reading that states, from these numbers, whether each seed's
// finding held here. Usage: node summarize.mjs results.ndjson > section.md
import { readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { execSync } from 'node:child_process';

const runs = readFileSync(process.argv[2], 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line))
  .map((r) => ({ ...r, k6: readJson(r.summary), prom: readProm(r.metrics) }));

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

// Sums every series of each metric name in a Prometheus text scrape.
function readProm(file) {
  const out = {};
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return out;
  }
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? ([0-9.eE+-]+|NaN)$/.exec(line);
    if (m) out[m[1]] = (out[m[1]] ?? 0) + Number(m[3]);
  }
  return out;
}

const k6v = (r, metric, stat) => r.k6?.metrics?.[metric]?.values?.[stat] ?? r.k6?.metrics?.[metric]?.[stat];
const durS = (r) => (r.k6?.state?.testRunDurationMs ?? NaN) / 1000;
const okRps = (r) => (k6v(r, 'http_reqs', 'count') * (1 - (k6v(r, 'http_req_failed', 'rate') ?? 0))) / durS(r);

function median(xs) {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function fmt(x, digits = 0) {
  if (!Number.isFinite(x)) return 'n/a';
  return x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

// "median (min–max)" over the repeats of one configuration.
function cell(rs, f, digits = 0) {
  const xs = rs.map(f).filter((x) => Number.isFinite(x));
  if (xs.length === 0) return 'n/a';
  return `${fmt(median(xs), digits)} (${fmt(Math.min(...xs), digits)}–${fmt(Math.max(...xs), digits)})`;
}

const bySeed = (seed) => runs.filter((r) => r.seed === seed);
function groups(seed) {
  const g = new Map();
  for (const r of bySeed(seed)) g.set(r.config, [...(g.get(r.config) ?? []), r]);
  return g;
}
const med = (rs, f) => median((rs ?? []).map(f));
const pct = (x) => x * 100;

const lines = [];
const out = (s = '') => lines.push(s);
const cpuModel = cpus()[0]?.model ?? 'unknown';
let pgVersion = 'unknown';
try {
  pgVersion = execSync("psql --version", { encoding: 'utf8' }).trim();
} catch {
  /* psql missing: leave unknown */
}
const repeats = Math.max(0, ...runs.map((r) => r.repeat));

out('## Lab target: the seeds reproduced (scaled down)');
out();
out(`Machine: ${cpus().length} cores (\`nproc\`), ${cpuModel}, ${fmt(totalmem() / 2 ** 30)} GiB RAM; ${pgVersion}; ${process.env.BENCH_K6 ?? 'k6'}.`);
out(`Command: \`${process.env.BENCH_CMD ?? 'bash apps/lab-target/bench/run.sh'}\` (via \`make bench\`), ${fmt(Number(process.env.BENCH_ELAPSED_S))} s.`);
out(`Each configuration ran ${repeats} times, interleaved (A B C A B C …), each run on a freshly started target;`);
out('cells are **median (min–max)** over the repeats. k6, Postgres, the target and the blob store share the 2 cores,');
out('so absolute numbers are this machine\'s, and only differences larger than the spread mean anything.');
out();

// --- Seed 004
const g4 = groups('004');
out('### Seed 004: open+close per request vs pool per request vs one shared pool (GET /health, 100 concurrent users)');
out();
out(`k6 \`shared-iterations\`, 100 VUs, ${fmt(k6v(bySeed('004')[0] ?? {}, 'http_reqs', 'count') || Number(process.env.SEED004_ITERATIONS) || 2000)} requests per run (the seed used ab -n 10000 -c 100). The target connects as a role with`);
out('`CONNECTION LIMIT` (see the command) so the open-per-request runs can meet "too many clients" as the seed\'s did; shared pool = max 20 / min 5 as in the seed; pool per request = max 100 / min 5.');
out();
out('| config | successful req/s | failed % | p50 ms | p99 ms | refused with 53300 | connections opened |');
out('|---|---:|---:|---:|---:|---:|---:|');
for (const [config, rs] of g4) {
  out(`| ${config} | ${cell(rs, okRps)} | ${cell(rs, (r) => pct(k6v(r, 'http_req_failed', 'rate')), 1)} | ${cell(rs, (r) => k6v(r, 'http_req_duration', 'med'), 1)} | ${cell(rs, (r) => k6v(r, 'http_req_duration', 'p(99)'), 1)} | ${cell(rs, (r) => r.prom.labtarget_db_too_many_clients_total)} | ${cell(rs, (r) => r.prom.labtarget_pool_conns_created_total)} |`);
}
out();

// --- Seed 000
const g0 = groups('000');
out('### Seed 000: cold-start burst of 20 KB uploads over TLS, lazy ("default") vs prewarm');
out();
out('k6 `ramping-vus` 0 → 100 VUs in 2 s, held 8 s (the seed\'s TC1 was 0 → 100 over 2 min 40 s), POST /upload → blob store over HTTPS');
out('(self-signed RSA-2048, HTTP/1.1), keep-alive pool of 100 connections; prewarm opens all 100 (TCP + TLS) before /ready, lazy on demand.');
out();
out('| config | max ms | p99 ms | p95 ms | req/s | failed % | TLS handshakes during the run | RSS at end MB | CPU s (target) |');
out('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
const handshakesDuringRun = (r) =>
  r.prom.labtarget_upstream_tls_handshake_seconds_count - (r.config === 'prewarm' ? 100 : 0);
for (const [config, rs] of g0) {
  out(`| ${config} | ${cell(rs, (r) => k6v(r, 'http_req_duration', 'max'))} | ${cell(rs, (r) => k6v(r, 'http_req_duration', 'p(99)'), 1)} | ${cell(rs, (r) => k6v(r, 'http_req_duration', 'p(95)'), 1)} | ${cell(rs, (r) => k6v(r, 'http_reqs', 'rate'))} | ${cell(rs, (r) => pct(k6v(r, 'http_req_failed', 'rate')), 1)} | ${cell(rs, handshakesDuringRun)} | ${cell(rs, (r) => r.prom.process_resident_memory_bytes / 2 ** 20, 1)} | ${cell(rs, (r) => r.prom.process_cpu_seconds_total, 2)} |`);
}
out();

// --- Seed 002
const g2 = groups('002');
const rates = [...new Set(bySeed('002').map((r) => r.config.split('@')[1]))];
out('### Seed 002: GET /roles p99 at a fixed request rate, pool max 1 vs 5 vs 10 (one instance, GOMAXPROCS=1)');
out();
out('k6 `constant-arrival-rate` for 5 s per run (the seed used Vegeta, 5 s); lazy pool of the given size; p99 / max in ms, and requests k6 could not start in time (dropped).');
out();
out(`| pool max | ${rates.map((r) => `p99 @ ${r}/s`).join(' | ')} | ${rates.map((r) => `max @ ${r}/s`).join(' | ')} | ${rates.map((r) => `dropped @ ${r}/s`).join(' | ')} |`);
out(`|---|${rates.map(() => '---:').join('|')}|${rates.map(() => '---:').join('|')}|${rates.map(() => '---:').join('|')}|`);
for (const size of ['1', '5', '10']) {
  const rs = (rate) => g2.get(`max${size}@${rate}`) ?? [];
  const p99 = rates.map((rate) => cell(rs(rate), (r) => k6v(r, 'http_req_duration', 'p(99)'), 1));
  const mx = rates.map((rate) => cell(rs(rate), (r) => k6v(r, 'http_req_duration', 'max')));
  const dropped = rates.map((rate) => cell(rs(rate), (r) => k6v(r, 'dropped_iterations', 'count') ?? 0));
  out(`| ${size} | ${p99.join(' | ')} | ${mx.join(' | ')} | ${dropped.join(' | ')} |`);
}
out();

// --- Reading, from the medians above
const shared = g4.get('shared');
const perReq = g4.get('per-request');
const ppr = g4.get('pool-per-request');
const lazy = g0.get('lazy');
const prewarm = g0.get('prewarm');
const p99Of = (rs) => med(rs, (r) => k6v(r, 'http_req_duration', 'p(99)'));
const maxOf = (rs) => med(rs, (r) => k6v(r, 'http_req_duration', 'max'));
const failOf = (rs) => med(rs, (r) => pct(k6v(r, 'http_req_failed', 'rate')));
const spreadOverlaps = (a, b, f) => {
  const xa = (a ?? []).map(f);
  const xb = (b ?? []).map(f);
  return Math.max(...xa) >= Math.min(...xb) && Math.max(...xb) >= Math.min(...xa);
};

out('### Reading');
out();
if (shared && perReq) {
  const ratio = med(shared, okRps) / med(perReq, okRps);
  const pprRatio = ppr ? med(shared, okRps) / med(ppr, okRps) : NaN;
  out(`- **Seed 004 ${ratio > 2 && failOf(perReq) > failOf(shared) ? 'holds' : 'does not hold as stated'}.** One shared pool served ${fmt(ratio, 1)}× the successful requests per second of open+close per request${ppr ? ` and ${fmt(pprRatio, 1)}× those of a pool per request` : ''} (seed: 467 vs 116 vs 20 req/s), with ${fmt(failOf(shared), 1)} % failures against ${fmt(failOf(perReq), 1)} %${ppr ? ` / ${fmt(failOf(ppr), 1)} %` : ''} (seed: 0 / 71 / 6.4 %). ` +
    'The failures are the database refusing connections (SQLSTATE 53300, counted by the target) once more clients connect at once than it allows; every opened connection also pays a fork and SCRAM authentication on the server, which is what caps the throughput of the per-request variants even before any refusal. ' +
    'Caveat: the refusals here come from a role `CONNECTION LIMIT`, not from `max_connections`; how many fail depends entirely on that ceiling, so the failure percentage is a property of this set-up, while the throughput ratio is not.');
}
if (lazy && prewarm) {
  const maxCut = 1 - maxOf(prewarm) / maxOf(lazy);
  const p99Cut = 1 - p99Of(prewarm) / p99Of(lazy);
  const overlap = spreadOverlaps(lazy, prewarm, (r) => k6v(r, 'http_req_duration', 'max'));
  const verdict = maxCut > 0 && !overlap ? 'holds in direction' : maxCut > 0 ? 'points the same way but within the noise' : 'does not hold here';
  out(`- **Seed 000 ${verdict}.** Prewarming the 100 upstream connections changed the burst's max latency by ${fmt(-maxCut * 100)} % (median ${fmt(maxOf(lazy))} → ${fmt(maxOf(prewarm))} ms; seed: −72 %, 20.69 → 5.74 s) and p99 by ${fmt(-p99Cut * 100)} %. ` +
    `The lazy target performed ~${fmt(med(lazy, handshakesDuringRun))} TLS handshakes inside the burst, the prewarmed one ~${fmt(med(prewarm, handshakesDuringRun))}. ` +
    'On loopback a TCP+TLS set-up costs a few milliseconds of CPU, not the hundreds of milliseconds of a real network path, so the absolute gap is small; the seed\'s multi-second maxima came from a remote MinIO and a saturated server, which this scaled run does not reproduce.');
}
if (g2.size > 0) {
  const parts = rates.map((rate) => {
    const p = (s) => p99Of(g2.get(`max${s}@${rate}`));
    return `at ${rate}/s p99 was ${fmt(p(1), 1)} / ${fmt(p(5), 1)} / ${fmt(p(10), 1)} ms for 1 / 5 / 10 connections`;
  });
  const monotone = rates.every((rate) => {
    const p = (s) => p99Of(g2.get(`max${s}@${rate}`));
    return p(1) > p(5) && p(5) >= p(10) * 0.8;
  });
  out(`- **Seed 002 ${monotone ? 'holds' : 'holds only in part'}.** ${parts.join('; ')} (seed, one instance: 204 / 19 / 4.7 ms at 500/s and 7 442 / 56 / 35 ms at 1 000/s). ` +
    'A single connection serialises every /roles query, so once the arrival rate exceeds what one connection can answer the queue (and p99) grows for the whole run; 5 and 10 connections absorb the rate. ' +
    'Between 5 and 10 the difference is small here, because with GOMAXPROCS=1 and two cores shared with Postgres and k6 the CPU, not the pool, is the next limit — the seed\'s own three-instance result (5 better than 10) points the same way.');
}
out();
out('Raw k6 summaries and /metrics scrapes of every run stay in the temporary directory printed by the script.');
process.stdout.write(lines.join('\n') + '\n');
