#!/usr/bin/env node
// Replaces one named section of docs/benchmarks.md with the markdown read from stdin,
// so each benchmark owns its section and a re-run never duplicates or clobbers the others.
// Usage: <producer> | node scripts/bench-section.mjs <section-name>
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const name = process.argv[2];
if (!name || !/^[a-z0-9-]+$/.test(name)) {
  console.error('usage: node scripts/bench-section.mjs <section-name (a-z0-9-)> < section.md');
  process.exit(2);
}
const file = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'benchmarks.md');
const body = readFileSync(0, 'utf8').trim();
const start = `<!-- bench:${name}:start -->`;
const end = `<!-- bench:${name}:end -->`;
const block = `${start}\n${body}\n${end}`;
let doc = existsSync(file)
  ? readFileSync(file, 'utf8')
  : '# Benchmarks\n\nWritten by `make bench`; each section names the machine and the command that produced it.\n';
const i = doc.indexOf(start);
const j = doc.indexOf(end);
doc =
  i >= 0 && j > i
    ? doc.slice(0, i) + block + doc.slice(j + end.length)
    : `${doc.trimEnd()}\n\n${block}\n`;
writeFileSync(file, doc);
console.log(`docs/benchmarks.md: section '${name}' updated`);
