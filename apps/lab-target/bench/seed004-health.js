/* global __ENV */
// Seed 004 (ab -n N -c 100 against GET /health): a fixed number of requests shared by a
// fixed number of concurrent users; throughput and failures are what the seed compares.
import http from 'k6/http';
import { summaryTrendStats, writeSummary } from './summary.js';

export const options = {
  summaryTrendStats,
  scenarios: {
    ab: {
      executor: 'shared-iterations',
      vus: Number(__ENV.VUS || 100),
      iterations: Number(__ENV.ITERATIONS || 2000),
      maxDuration: __ENV.MAX_DURATION || '20s',
    },
  },
};

export default function () {
  http.get(`${__ENV.BASE_URL}/health`);
}

export const handleSummary = writeSummary;
