#!/usr/bin/env node
// Adds up the JUnit reports one `make test` wrote: Vitest per workspace (.cache/junit/unit.xml,
// integration.xml), Go (go-unit.xml, go-integration.xml), Playwright, the CLI e2e and
// Schemathesis (test-results/*.xml). Prints one line per report that holds tests and, last, the
// suite's closing line in the convention CI readers know, "==== N passed, N failed, N skipped in
// Ts ====" (T from POOLBENCH_SUITE_SECONDS). Exits 1 when a report counts a failure or none
// was found, so a suite that ran no test cannot close as a pass.
//   node scripts/test-summary.mjs <root>
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

const files = reports();
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
