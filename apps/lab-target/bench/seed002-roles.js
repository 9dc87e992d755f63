/* global __ENV */
// Seed 002 (Vegeta at a fixed rate for 5 s against GET /roles): open-model arrivals, so a
// slow pool shows up as latency (and dropped iterations), not as a lower request rate.
import http from 'k6/http';
import { summaryTrendStats, writeSummary } from './summary.js';

export const options = {
  summaryTrendStats,
  scenarios: {
    vegeta: {
      executor: 'constant-arrival-rate',
      rate: Number(__ENV.RATE || 500),
      timeUnit: '1s',
      duration: __ENV.DURATION || '5s',
      preAllocatedVUs: 100,
      maxVUs: 1000,
    },
  },
};

export default function () {
  http.get(`${__ENV.BASE_URL}/roles`);
}

export const handleSummary = writeSummary;
