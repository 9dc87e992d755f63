/* global __ENV */
// Seed 001 (k6 ramp-up to 250-300 users, each fetching ROWS x FIELDS from the database as
// JSON): ramping-vus 0 → VUS in RAMP, held HOLD. Bodies are read in full and discarded.
import http from 'k6/http';
import { summaryTrendStats, writeSummary } from './summary.js';

const vus = Number(__ENV.VUS || 50);

export const options = {
  summaryTrendStats,
  discardResponseBodies: true,
  scenarios: {
    rampup: {
      executor: 'ramping-vus',
      startVUs: 0,
      stages: [
        { duration: __ENV.RAMP || '2s', target: vus },
        { duration: __ENV.HOLD || '4s', target: vus },
      ],
      gracefulRampDown: '10s',
    },
  },
};

const url = `${__ENV.BASE_URL}/query?rows=${Number(__ENV.ROWS || 1000)}&fields=${Number(__ENV.FIELDS || 40)}`;

export default function () {
  http.get(url);
}

export const handleSummary = writeSummary;
