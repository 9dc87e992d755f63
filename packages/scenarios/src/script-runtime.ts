/**
 * The fixed part of every generated k6 script. It contains no user values: those arrive only as
 * the JSON literals CONFIG and options, so user text can never become code.
 */
export const SCRIPT_RUNTIME = String.raw`
const BASE_URLS = String(__ENV.BASE_URLS || '')
  .split(',')
  .map((u) => u.trim().replace(/\/+$/, ''))
  .filter((u) => u.length > 0);
if (BASE_URLS.length === 0) {
  throw new Error('BASE_URLS is empty: run k6 with -e BASE_URLS=<url>[,<url>...] (comma-separated)');
}
for (const u of BASE_URLS) {
  if (!/^https?:\/\/[^\s?#]+$/.test(u)) throw new Error('BASE_URLS entry is not an http(s) URL: ' + u);
}

// A target's secret headers (e.g. Authorization) come from k6's process environment, set by the
// worker: they are never part of this script, which is stored and shown to the team.
const SECRET_HEADERS = __ENV.POOLBENCH_SECRET_HEADERS ? JSON.parse(__ENV.POOLBENCH_SECRET_HEADERS) : {};

// Built once per VU in the init context, so building a payload never counts as request time.
const BODIES = CONFIG.requests.map((r) => {
  if (r.body.kind === 'bytes') return 'x'.repeat(r.body.sizeBytes);
  if (r.body.kind === 'json') return JSON.stringify(r.body.value);
  return null;
});
const TOTAL_WEIGHT = CONFIG.requests.reduce((s, r) => s + r.weight, 0);

// Only 2xx is success: a 503 from an exhausted pool must count in http_req_failed.
http.setResponseCallback(http.expectedStatuses({ min: 200, max: 299 }));

function pickRequest() {
  let x = Math.random() * TOTAL_WEIGHT;
  for (let i = 0; i < CONFIG.requests.length; i++) {
    x -= CONFIG.requests[i].weight;
    if (x < 0) return i;
  }
  return CONFIG.requests.length - 1;
}

function queryString(query) {
  const parts = [];
  for (const key of Object.keys(query)) {
    const v = query[key];
    let s;
    if (v !== null && typeof v === 'object') {
      const r = v.randomInt;
      s = String(r.min + Math.floor(Math.random() * (r.max - r.min + 1)));
    } else {
      s = String(v);
    }
    parts.push(encodeURIComponent(key) + '=' + encodeURIComponent(s));
  }
  return parts.length > 0 ? '?' + parts.join('&') : '';
}

function hasHeader(headers, name) {
  const lower = name.toLowerCase();
  return Object.keys(headers).some((h) => h.toLowerCase() === lower);
}

export function setup() {
  const res = http.get(BASE_URLS[0] + CONFIG.readyPath, {
    headers: Object.assign({}, CONFIG.targetHeaders, SECRET_HEADERS),
    timeout: '5s',
    tags: { name: CONFIG.setupTagName },
    responseCallback: http.expectedStatuses({ min: 100, max: 599 }),
  });
  if (res.status === 0) {
    exec.test.abort('target ' + BASE_URLS[0] + ' does not answer: ' + res.error);
  }
  // Distributed runs: every generator waits here, VUs initialised and the target checked, until the
  // common instant the worker chose once all generators were ready (a start barrier without k6's
  // REST API, which stays disabled). Absent for a run on one generator.
  const startAt = Number(__ENV.POOLBENCH_START_AT_MS || 0);
  const wait = startAt - Date.now();
  if (startAt > 0 && wait > 0) sleep(wait / 1000);
  return { readyStatus: res.status };
}

export default function () {
  const i = CONFIG.requests.length === 1 ? 0 : pickRequest();
  const r = CONFIG.requests[i];
  // Global iteration number, so requests go round-robin over the instances across all VUs.
  const base = BASE_URLS[exec.scenario.iterationInTest % BASE_URLS.length];
  const headers = Object.assign({}, CONFIG.targetHeaders, r.headers);
  if (r.body.kind === 'bytes' && !hasHeader(headers, 'Content-Type')) headers['Content-Type'] = r.body.contentType;
  if (r.body.kind === 'json' && !hasHeader(headers, 'Content-Type')) headers['Content-Type'] = 'application/json';
  if (r.priority && Math.random() < r.priority.fraction) headers[r.priority.header] = r.priority.value;
  Object.assign(headers, SECRET_HEADERS);
  http.request(r.method, base + r.path + queryString(r.query), BODIES[i], {
    headers: headers,
    timeout: r.timeoutMs + 'ms',
    tags: { name: r.tagName },
  });
  if (CONFIG.thinkTimeMs > 0) sleep(CONFIG.thinkTimeMs / 1000);
}
`;
