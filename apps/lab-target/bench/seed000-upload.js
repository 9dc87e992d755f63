/* global __ENV */
// Seed 000 TC1 scaled down: a cold-start burst of 20 KB uploads (0 -> VUS users in RAMP,
// then HOLD) against a freshly started target; max and p99 latency are what the seed compares.
import http from 'k6/http';
import { summaryTrendStats, writeSummary } from './summary.js';

const payload = 'x'.repeat(Number(__ENV.BYTES || 20480));

export const options = {
  summaryTrendStats,
  scenarios: {
    burst: {
      executor: 'ramping-vus',
      startVUs: 0,
      stages: [
        { duration: __ENV.RAMP || '2s', target: Number(__ENV.VUS || 100) },
        { duration: __ENV.HOLD || '8s', target: Number(__ENV.VUS || 100) },
      ],
      gracefulRampDown: '5s',
    },
  },
};

export default function () {
  http.post(`${__ENV.BASE_URL}/upload`, payload, { headers: { 'Content-Type': 'application/octet-stream' } });
}

export const handleSummary = writeSummary;
