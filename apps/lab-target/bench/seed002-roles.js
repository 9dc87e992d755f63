/* global __ENV */
// Seed 002 (Vegeta at a fixed rate for 5 s against GET /roles): open-model arrivals, so a
// slow pool shows up as latency (and dropped iterations), not as a lower request rate.
// BASE_URLS (comma-separated) spreads the requests round robin over several instances, as the
// seed's nginx did in front of its three; else BASE_URL.
import http from 'k6/http';
import exec from 'k6/execution';
import { summaryTrendStats, writeSummary } from './summary.js';

const urls = (__ENV.BASE_URLS || __ENV.BASE_URL).split(',');

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
  http.get(`${urls[exec.scenario.iterationInTest % urls.length]}/roles`);
}

export const handleSummary = writeSummary;
