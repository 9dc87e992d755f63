#!/usr/bin/env node
// Runs `go test -json` in the current directory and prints what plain `go test` prints (each
// package's closing line, and the whole output of a failing test), then writes a JUnit report to
// the path given first, so `make test` can count Go tests beside the Vitest and Playwright ones.
// Exits with go's exit code.
//   node scripts/go-test-report.mjs <report.xml> [go test args; default ./...]
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';

const [report, ...rest] = process.argv.slice(2);
if (!report) {
  console.error('usage: go-test-report.mjs <report.xml> [go test args]');
  process.exit(2);
}
const args = ['test', '-json', ...(rest.length > 0 ? rest : ['./...'])];
const child = spawn('go', args, { stdio: ['ignore', 'pipe', 'inherit'] });

/** per package: its top-level tests in the order they ran, and the package's own outcome */
const packages = new Map();
function pkgOf(name) {
  let p = packages.get(name);
  if (!p) {
    p = { name, tests: new Map(), elapsed: 0, failed: false };
    packages.set(name, p);
  }
  return p;
}

const lines = createInterface({ input: child.stdout });
lines.on('line', (line) => {
  let ev;
  try {
    ev = JSON.parse(line);
  } catch {
    process.stdout.write(`${line}\n`); // not an event (e.g. a build error): shown as go shows it
    return;
  }
  if (typeof ev !== 'object' || ev === null || typeof ev.Package !== 'string') {
    if (typeof ev?.Output === 'string') process.stdout.write(ev.Output);
    return;
  }
  const pkg = pkgOf(ev.Package);
  const topLevel = typeof ev.Test === 'string' && !ev.Test.includes('/');
  if (typeof ev.Test !== 'string') {
    if (ev.Action === 'output' && typeof ev.Output === 'string') {
      // the package's own lines: "ok  pkg 0.1s", "FAIL", "PASS" and what failing tests printed
      // (go repeats those only under -v, so they are printed from the tests' buffers below)
      if (!/^(=== |--- |\s{4}|PASS\n$)/.test(ev.Output)) process.stdout.write(ev.Output);
    } else if (ev.Action === 'fail') {
      pkg.failed = true;
    }
    if (typeof ev.Elapsed === 'number') pkg.elapsed = ev.Elapsed;
    return;
  }
  const name = ev.Test.split('/')[0];
  let t = pkg.tests.get(name);
  if (!t) {
    t = { name, outcome: 'run', elapsed: 0, output: [] };
    pkg.tests.set(name, t);
  }
  if (ev.Action === 'output' && typeof ev.Output === 'string') t.output.push(ev.Output);
  if (topLevel && (ev.Action === 'pass' || ev.Action === 'fail' || ev.Action === 'skip')) {
    t.outcome = ev.Action;
    if (typeof ev.Elapsed === 'number') t.elapsed = ev.Elapsed;
    if (ev.Action === 'fail') process.stdout.write(t.output.join(''));
  }
});

const xml = (s) =>
  String(s)
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

child.on('close', (code) => {
  const suites = [];
  let total = 0;
  let failures = 0;
  let skipped = 0;
  for (const p of packages.values()) {
    const cases = [];
    let pf = 0;
    let ps = 0;
    for (const t of p.tests.values()) {
      let body = '';
      // a test still "run" when the package ended was cut short (a panic or a timeout): a failure
      if (t.outcome === 'fail' || t.outcome === 'run') {
        pf += 1;
        body = `<failure message="${t.outcome === 'run' ? 'did not finish' : 'failed'}">${xml(t.output.join(''))}</failure>`;
      } else if (t.outcome === 'skip') {
        ps += 1;
        body = '<skipped/>';
      }
      cases.push(
        `    <testcase classname="${xml(p.name)}" name="${xml(t.name)}" time="${t.elapsed}">${body}</testcase>`,
      );
    }
    // a package that failed without a failing test failed to build or crashed outside a test
    if (p.failed && pf === 0) {
      pf += 1;
      cases.push(
        `    <testcase classname="${xml(p.name)}" name="(package)" time="${p.elapsed}"><failure message="package failed"/></testcase>`,
      );
    }
    total += cases.length;
    failures += pf;
    skipped += ps;
    suites.push(
      `  <testsuite name="${xml(p.name)}" tests="${cases.length}" failures="${pf}" errors="0" skipped="${ps}" time="${p.elapsed}">\n${cases.join('\n')}\n  </testsuite>`,
    );
  }
  mkdirSync(dirname(report), { recursive: true });
  writeFileSync(
    report,
    `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="go test" tests="${total}" failures="${failures}" errors="0" skipped="${skipped}">\n${suites.join('\n')}\n</testsuites>\n`,
  );
  process.exit(code ?? 1);
});
