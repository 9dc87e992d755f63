/* global __ENV */
// Seed 003's load, scaled down: an open-model arrival rate that warms up at half the baseline
// rate BASE, holds BASE, bursts to BURST_FACTOR x BASE (the seed: 5x), then falls back to BASE.
// Each request holds a database connection for 10-800 ms (GET /work?ms=); one in four is a
// write (POST /work, the same wait inside a transaction that updates a counter row) and is
// sent with X-Priority: high, the seed's "critical" checkout path that priority and hybrid
// pools serve first (other strategies ignore the header). Query length and read/write follow
// a fixed pseudo-random sequence of the iteration number, so every strategy and every repeat
// gets the same requests in the same order.
import http from 'k6/http';
import exec from 'k6/execution';
import { summaryTrendStats, writeSummary } from './summary.js';

const base = Number(__ENV.BASE || 15);
const factor = Number(__ENV.BURST_FACTOR || 5);
const minMs = Number(__ENV.MIN_MS || 10);
const maxMs = Number(__ENV.MAX_MS || 800);

export const options = {
  summaryTrendStats,
  scenarios: {
    burst: {
      executor: 'ramping-arrival-rate',
      startRate: Math.round(base / 2),
      timeUnit: '1s',
      preAllocatedVUs: 50,
      maxVUs: 500,
      stages: [
        { duration: '0s', target: Math.round(base / 2) },
        { duration: __ENV.WARM || '1s', target: Math.round(base / 2) },
        { duration: '0s', target: base },
        { duration: __ENV.STEADY || '3s', target: base },
        { duration: '0s', target: base * factor },
        { duration: __ENV.BURST || '5s', target: base * factor },
        { duration: '0s', target: base },
        { duration: __ENV.COOL || '1s', target: base },
      ],
      gracefulStop: '10s',
    },
  },
  // Thresholds that always pass, so the summary carries these sub-metrics.
  thresholds: {
    'http_req_duration{kind:write}': ['max>=0'],
    'http_req_failed{kind:write}': ['rate>=0'],
    'http_req_duration{kind:read}': ['max>=0'],
    'http_req_failed{kind:read}': ['rate>=0'],
  },
};

// mulberry32: a small deterministic generator, one fresh state per iteration number.
function rand(seed) {
  let t = (seed + 0x6d2b79f5) >>> 0;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

export default function () {
  const i = exec.scenario.iterationInTest;
  const ms = Math.round(minMs + rand(2 * i) * (maxMs - minMs));
  const write = rand(2 * i + 1) < 0.25;
  const url = `${__ENV.BASE_URL}/work?ms=${ms}`;
  if (write) {
    http.post(url, null, { headers: { 'X-Priority': 'high' }, tags: { kind: 'write' } });
  } else {
    http.get(url, { tags: { kind: 'read' } });
  }
}

export const handleSummary = writeSummary;
