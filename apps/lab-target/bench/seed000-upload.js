/* global __ENV */
// Seed 000's four k6 test cases, scaled down, against a freshly started target: POST /upload
// of BYTES (20 KB, 1 MB for TC2) → blob store over TLS. SHAPE picks the test case:
//   burst     TC1 cold-start burst: 0 → VUS in RAMP, held HOLD
//   ramp      TC2 gradual ramp-up: 0 → VUS over RAMP (no hold)
//   spike     TC3 two spikes: BASE_VUS, up to VUS in 1 s, SPIKE_HOLD, back to BASE_VUS for BASE_HOLD, again
//   sustained TC4: VUS constant for DURATION, each user pausing SLEEP s between uploads
import http from 'k6/http';
import { sleep } from 'k6';
import { summaryTrendStats, writeSummary } from './summary.js';

const payload = 'x'.repeat(Number(__ENV.BYTES || 20480));
const vus = Number(__ENV.VUS || 100);
const shape = __ENV.SHAPE || 'burst';
const pause = Number(__ENV.SLEEP || 0);

function scenario() {
  switch (shape) {
    case 'burst':
      return {
        executor: 'ramping-vus',
        startVUs: 0,
        stages: [
          { duration: __ENV.RAMP || '2s', target: vus },
          { duration: __ENV.HOLD || '8s', target: vus },
        ],
        gracefulRampDown: '5s',
      };
    case 'ramp':
      return {
        executor: 'ramping-vus',
        startVUs: 0,
        stages: [{ duration: __ENV.RAMP || '8s', target: vus }],
        gracefulRampDown: '30s',
      };
    case 'spike': {
      const base = Number(__ENV.BASE_VUS || Math.round(vus / 10));
      const hold = __ENV.SPIKE_HOLD || '2s';
      const rest = __ENV.BASE_HOLD || '1s';
      return {
        executor: 'ramping-vus',
        startVUs: 0,
        stages: [
          { duration: '1s', target: base },
          { duration: rest, target: base },
          { duration: '1s', target: vus },
          { duration: hold, target: vus },
          { duration: '1s', target: base },
          { duration: rest, target: base },
          { duration: '1s', target: vus },
          { duration: hold, target: vus },
          { duration: '1s', target: 0 },
        ],
        gracefulRampDown: '5s',
      };
    }
    case 'sustained':
      return { executor: 'constant-vus', vus, duration: __ENV.DURATION || '15s', gracefulStop: '5s' };
    default:
      throw new Error(`unknown SHAPE ${shape}`);
  }
}

export const options = { summaryTrendStats, scenarios: { [shape]: scenario() } };

export default function () {
  http.post(`${__ENV.BASE_URL}/upload`, payload, { headers: { 'Content-Type': 'application/octet-stream' } });
  if (pause > 0) sleep(pause);
}

export const handleSummary = writeSummary;
