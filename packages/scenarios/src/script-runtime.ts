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

function queryString(query, vars) {
  const parts = [];
  for (const key of Object.keys(query)) {
    const v = query[key];
    let s;
    if (v !== null && typeof v === 'object') {
      const r = v.randomInt;
      s = String(r.min + Math.floor(Math.random() * (r.max - r.min + 1)));
    } else {
      s = fill(String(v), vars, asIs);
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

// Flows and checks. Values taken from responses, and data rows, fill {{name}} in paths, query
// values, header values and JSON bodies, each encoded for where it goes; nothing is evaluated.
const CHECK_FAILED = new Counter('poolbench_check_failed');
const DATA = CONFIG.data
  ? new SharedArray('poolbench data', function () {
      // the one file a generated script opens: the rows the worker wrote beside it
      return JSON.parse(open('./poolbench-data.json'));
    })
  : null;
const REGEXES = CONFIG.requests.map((r) =>
  r.extract.map((e) => (e.from === 'regex' ? new RegExp(e.pattern) : null)),
);
const VAR = /\{\{([A-Za-z_][A-Za-z0-9_]{0,31})\}\}/g;
const MAX_VALUE_CHARS = 65536;

function fill(s, vars, encode) {
  if (vars === null || typeof s !== 'string' || s.indexOf('{{') < 0) return s;
  return s.replace(VAR, (m, name) =>
    Object.prototype.hasOwnProperty.call(vars, name) ? encode(vars[name]) : m,
  );
}
const asIs = (v) => v;
const headerSafe = (v) => v.replace(/[\r\n\0]/g, '');
const inJsonString = (v) => JSON.stringify(v).slice(1, -1);

function dataRow() {
  const vars = {};
  if (!DATA) return vars;
  const n = DATA.length;
  const i = CONFIG.data.per === 'vu' ? (exec.vu.idInTest - 1) % n : exec.scenario.iterationInTest % n;
  const row = DATA[i];
  for (let c = 0; c < CONFIG.data.columns.length; c++) vars[CONFIG.data.columns[c]] = row[c];
  return vars;
}

function headerOf(res, name) {
  const lower = name.toLowerCase();
  for (const h of Object.keys(res.headers)) if (h.toLowerCase() === lower) return res.headers[h];
  return undefined;
}

function extracted(i, e, k, res) {
  let v;
  if (e.from === 'json') {
    try {
      v = res.json(e.path);
    } catch (_) {
      v = undefined;
    }
  } else if (e.from === 'header') {
    v = headerOf(res, e.header);
  } else {
    const m = typeof res.body === 'string' ? REGEXES[i][k].exec(res.body) : null;
    v = m ? m[e.group] : undefined;
  }
  if (v === undefined || v === null) return undefined;
  const text = typeof v === 'object' ? JSON.stringify(v) : String(v);
  return text.length > MAX_VALUE_CHARS ? text.slice(0, MAX_VALUE_CHARS) : text;
}

function passes(c, res) {
  if (c.kind === 'status') return res.status === c.equals;
  if (c.kind === 'body-contains') return typeof res.body === 'string' && res.body.indexOf(c.value) >= 0;
  if (c.kind === 'latency-below') return res.timings.duration < c.ms;
  let v;
  try {
    v = res.json(c.path);
  } catch (_) {
    return false;
  }
  return v === c.value || (c.value === null && v === undefined);
}

// Sends request i; true when it succeeded: a 2xx status, every check passed and every value it
// extracts was found (those are stored in vars for the requests after it).
function send(i, allVars, base) {
  const r = CONFIG.requests[i];
  // only requests that use a variable pay for filling (a bytes body can be 16 MiB)
  const vars = r.hasVariables ? allVars : null;
  const headers = Object.assign({}, CONFIG.targetHeaders);
  for (const h of Object.keys(r.headers)) headers[h] = fill(r.headers[h], vars, headerSafe);
  if (r.body.kind === 'bytes' && !hasHeader(headers, 'Content-Type')) headers['Content-Type'] = r.body.contentType;
  if (r.body.kind === 'json' && !hasHeader(headers, 'Content-Type')) headers['Content-Type'] = 'application/json';
  if (r.priority && Math.random() < r.priority.fraction) headers[r.priority.header] = r.priority.value;
  Object.assign(headers, SECRET_HEADERS);
  const params = { headers: headers, timeout: r.timeoutMs + 'ms', tags: { name: r.tagName } };
  if (r.needsBody) params.responseType = 'text';
  const res = http.request(
    r.method,
    base + fill(r.path, vars, encodeURIComponent) + queryString(r.query, vars),
    r.body.kind === 'json' ? fill(BODIES[i], vars, inJsonString) : BODIES[i],
    params,
  );
  const statusOk = res.status >= 200 && res.status <= 299;
  if (r.checks.length === 0 && r.extract.length === 0) return statusOk;
  const results = {};
  for (const c of r.checks) results[c.name] = passes(c, res);
  r.extract.forEach((e, k) => {
    const v = extracted(i, e, k, res);
    results['extract ' + e.name] = v !== undefined;
    if (v !== undefined) allVars[e.name] = v;
  });
  const fns = {};
  for (const name of Object.keys(results)) fns[name] = () => results[name];
  const checked = check(res, fns, { name: r.tagName });
  if (statusOk && !checked) CHECK_FAILED.add(1, { name: r.tagName });
  return statusOk && checked;
}

export default function () {
  // Global iteration number, so iterations go round-robin over the instances across all VUs; a
  // flow's steps all go to its iteration's instance.
  const base = BASE_URLS[exec.scenario.iterationInTest % BASE_URLS.length];
  const vars = dataRow();
  if (CONFIG.flow) {
    for (let i = 0; i < CONFIG.requests.length; i++) {
      // A flow stops at its first failed step: the steps after it would act on what it did not give.
      if (!send(i, vars, base)) break;
      const pause = CONFIG.requests[i].thinkTimeMs;
      if (pause > 0 && i < CONFIG.requests.length - 1) sleep(pause / 1000);
    }
  } else {
    send(CONFIG.requests.length === 1 ? 0 : pickRequest(), vars, base);
  }
  if (CONFIG.thinkTimeMs > 0) sleep(CONFIG.thinkTimeMs / 1000);
}
`;
