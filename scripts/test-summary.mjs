#!/usr/bin/env node
// Adds up the JUnit reports one `make test` wrote: Vitest per workspace (.cache/junit/unit.xml,
// integration.xml, measurement.xml), Go (go-unit.xml, go-integration.xml), Playwright, the CLI e2e and
// Schemathesis (test-results/*.xml). Prints one line per report that holds tests and, last, the
// suite's closing line in the convention CI readers know, "==== N passed, N failed, N skipped in
// Ts ====" (T from POOLBENCH_SUITE_SECONDS). Exits 1 when a report counts a failure or none
// was found, so a suite that ran no test cannot close as a pass.
//   node scripts/test-summary.mjs <root>
// With --failures it prints only the failed tests, each with the first lines of its message: the
// suite prints them last when it fails, so a CI log's tail names what failed and why.
//   node scripts/test-summary.mjs <root> --failures
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = process.argv[2] ?? process.cwd();

function reports() {
  const found = [];
  for (const group of ['apps', 'packages', 'apps/lab-targets']) {
    const base = join(root, group);
    if (!existsSync(base)) continue;
    for (const ws of readdirSync(base, { withFileTypes: true })) {
      if (!ws.isDirectory()) continue;
      const dir = join(base, ws.name, '.cache', 'junit');
      if (!existsSync(dir)) continue;
      for (const f of readdirSync(dir)) if (f.endsWith('.xml')) found.push(join(dir, f));
    }
  }
  // the infra workspace sits at the root
  const infra = join(root, 'infra', '.cache', 'junit');
  if (existsSync(infra))
    for (const f of readdirSync(infra)) if (f.endsWith('.xml')) found.push(join(infra, f));
  const results = join(root, 'test-results');
  if (existsSync(results)) {
    for (const f of readdirSync(results)) if (f.endsWith('.xml')) found.push(join(results, f));
  }
  return found.sort();
}

/** counts over the <testsuite> elements (not the <testsuites> root, which not every tool fills) */
export function countJunit(text) {
  const counts = { tests: 0, failed: 0, skipped: 0 };
  for (const m of text.matchAll(/<testsuite\s([^>]*)>/g)) {
    const attr = (name) => {
      const a = new RegExp(`(?:^|\\s)${name}="(\\d+)"`).exec(m[1]);
      return a ? Number(a[1]) : 0;
    };
    counts.tests += attr('tests');
    counts.failed += attr('failures') + attr('errors');
    counts.skipped += attr('skipped') + attr('disabled');
  }
  return counts;
}

const XML_ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
function unescapeXml(text) {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, e) => {
    if (e[0] === '#')
      return String.fromCodePoint(e[1] === 'x' ? parseInt(e.slice(2), 16) : Number(e.slice(1)));
    return XML_ENTITIES[e] ?? whole;
  });
}

/** the failed <testcase> elements of one report: name (classname › name) and message lines */
export function failedCases(text) {
  const out = [];
  for (const m of text.matchAll(/<testcase\s([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g)) {
    const body = m[3] ?? '';
    const f = /<(failure|error)\b([^>]*?)(?:\/>|>([\s\S]*?)<\/\1>)/.exec(body);
    if (!f) continue;
    const attr = (src, name) => {
      const a = new RegExp(`(?:^|\\s)${name}="([^"]*)"`).exec(src);
      return a ? unescapeXml(a[1]) : '';
    };
    const name = [attr(m[1], 'classname'), attr(m[1], 'name')].filter(Boolean).join(' › ');
    const raw = (f[3] ?? '').trim();
    const cdata = /^<!\[CDATA\[([\s\S]*)\]\]>$/.exec(raw);
    const detail = cdata ? cdata[1] : unescapeXml(raw);
    const lines = [attr(f[2], 'message'), ...detail.split('\n')]
      .map((l) => l.trimEnd())
      .filter((l, i, all) => l.trim() !== '' && all.indexOf(l) === i);
    out.push({ name, lines });
  }
  return out;
}

const files = reports();
if (process.argv.includes('--failures')) {
  const MAX_CASES = 15;
  const MAX_LINES = 8;
  let shown = 0;
  let total = 0;
  for (const file of files) {
    for (const c of failedCases(readFileSync(file, 'utf8'))) {
      total++;
      if (shown >= MAX_CASES) continue;
      shown++;
      console.log(`FAILED ${relative(root, file)}: ${c.name}`);
      for (const l of c.lines.slice(0, MAX_LINES)) console.log(`    ${l.slice(0, 300)}`);
    }
  }
  if (total > shown) console.log(`... and ${total - shown} more failed tests`);
  if (total === 0) console.log('no report names a failed test: the failure is in the log above');
  process.exit(0);
}
let passed = 0;
let failed = 0;
let skipped = 0;
const empty = [];
for (const file of files) {
  const c = countJunit(readFileSync(file, 'utf8'));
  const p = Math.max(0, c.tests - c.failed - c.skipped);
  passed += p;
  failed += c.failed;
  skipped += c.skipped;
  if (c.tests === 0) empty.push(relative(root, file));
  else
    console.log(`  ${relative(root, file)}: ${p} passed, ${c.failed} failed, ${c.skipped} skipped`);
}
if (empty.length > 0) console.log(`  no test in: ${empty.join(', ')}`);
const seconds = Number(process.env.POOLBENCH_SUITE_SECONDS);
const took = Number.isFinite(seconds) && seconds > 0 ? ` in ${seconds}s` : '';
console.log(`==== ${passed} passed, ${failed} failed, ${skipped} skipped${took} ====`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
