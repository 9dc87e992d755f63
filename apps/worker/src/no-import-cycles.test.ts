import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return name === 'generated' ? [] : sources(p);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [p] : [];
  });
}

/** Relative imports and re-exports of a file, resolved to files (type-only imports included). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]/g)].map(
    (m) => m[1]!,
  );
  return specs.flatMap((spec) => {
    const base = resolve(dirname(file), spec);
    const hit = [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), base].find(
      (p) => existsSync(p) && statSync(p).isFile(),
    );
    return hit ? [hit] : [];
  });
}

/** Every import cycle among a folder's files, each as the list of files around it. */
export function importCycles(dir: string): string[][] {
  const files = sources(dir);
  const graph = new Map(files.map((f) => [f, importsOf(f)]));
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (f: string) => {
    state.set(f, 'open');
    stack.push(f);
    for (const g of graph.get(f) ?? []) {
      if (state.get(g) === 'open')
        cycles.push(stack.slice(stack.indexOf(g)).map((x) => relative(ROOT, x)));
      else if (!state.has(g)) visit(g);
    }
    stack.pop();
    state.set(f, 'done');
  };
  for (const f of files) if (!state.has(f)) visit(f);
  return cycles;
}

describe('no import cycles', () => {
  it.each(['apps/worker/src', 'packages/runs/src', 'packages/stats/src', 'packages/queue/src'])(
    '%s',
    (dir) => {
      expect(importCycles(join(ROOT, dir))).toEqual([]);
    },
  );
  it('finds a cycle, type-only imports included', () => {
    // two files shaped like the run files that once imported each other
    const dir = mkdtempSync(join(tmpdir(), 'pb-cycle-check-'));
    try {
      writeFileSync(join(dir, 'a.ts'), "import type { B } from './b';\nexport type A = B;\n");
      writeFileSync(join(dir, 'b.ts'), "export type { A } from './a';\nexport type B = 1;\n");
      writeFileSync(join(dir, 'c.ts'), "import type { B } from './b';\nexport type C = B;\n");
      expect(importCycles(dir).map((c) => c.map((f) => f.split('/').pop()))).toEqual([
        ['a.ts', 'b.ts'],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
