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

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return name === 'generated' ? [] : sources(p);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [p] : [];
  });
}

/**
 * Imports and re-exports of a file within its workspace, resolved to files (type-only imports
 * included): relative ones, and `~/` ones where the workspace maps `~` to a folder (apps/web).
 */
function importsOf(file: string, alias: string | null): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [
    ...text.matchAll(/(?:import|export)\s[^'"]*?from\s+['"]((?:\.|~\/)[^'"]+)['"]/g),
  ].map((m) => m[1]!);
  return specs.flatMap((spec) => {
    if (spec.startsWith('~/') && !alias) return [];
    const base = spec.startsWith('~/') ? join(alias!, spec.slice(2)) : resolve(dirname(file), spec);
    const hit = [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), base].find(
      (p) => existsSync(p) && statSync(p).isFile(),
    );
    return hit ? [hit] : [];
  });
}

/** Every import cycle among a folder's files, each as the list of files around it. */
export function importCycles(dir: string, alias: string | null = null): string[][] {
  const files = sources(dir);
  const graph = new Map(files.map((f) => [f, importsOf(f, alias)]));
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

/** Every workspace: its package.json's folder and its name. */
function workspaces(): { dir: string; name: string; deps: string[] }[] {
  return ['apps', 'packages', 'apps/lab-targets'].flatMap((group) =>
    readdirSync(join(ROOT, group)).flatMap((name) => {
      const pkg = join(ROOT, group, name, 'package.json');
      if (!existsSync(pkg)) return [];
      const json = JSON.parse(readFileSync(pkg, 'utf8')) as {
        name: string;
        dependencies?: Record<string, string>;
        devDependencies?: Record<string, string>;
      };
      const deps = Object.keys({ ...json.dependencies, ...json.devDependencies });
      return [{ dir: join(ROOT, group, name), name: json.name, deps }];
    }),
  );
}

describe('no import cycles', () => {
  const all = workspaces();

  it('covers every workspace with TypeScript sources', () => {
    expect(all.map((w) => w.name)).toEqual(
      expect.arrayContaining(['@poolbench/web', '@poolbench/cli', '@poolbench/db']),
    );
  });

  it.each(all.filter((w) => existsSync(join(w.dir, 'src'))).map((w) => [w.name, w.dir] as const))(
    'within %s',
    (_name, dir) => {
      // apps/web imports its own files as ~/… (tsconfig paths) as well as relatively
      const alias = existsSync(join(dir, 'src/app')) ? join(dir, 'src') : null;
      expect(importCycles(join(dir, 'src'), alias)).toEqual([]);
    },
  );

  it('between workspaces: their package.json dependencies form no circle', () => {
    const byName = new Map(all.map((w) => [w.name, w]));
    const circles: string[][] = [];
    const state = new Map<string, 'open' | 'done'>();
    const stack: string[] = [];
    const visit = (n: string) => {
      state.set(n, 'open');
      stack.push(n);
      for (const d of byName.get(n)!.deps.filter((x) => byName.has(x))) {
        if (state.get(d) === 'open') circles.push(stack.slice(stack.indexOf(d)));
        else if (!state.has(d)) visit(d);
      }
      stack.pop();
      state.set(n, 'done');
    };
    for (const w of all) if (!state.has(w.name)) visit(w.name);
    expect(circles).toEqual([]);
  });

  it('contracts depend on no workspace, and the database on the contracts alone', () => {
    const ours = (name: string) =>
      all.find((w) => w.name === name)!.deps.filter((d) => d.startsWith('@poolbench/'));
    expect(ours('@poolbench/contracts')).toEqual([]);
    expect(ours('@poolbench/db')).toEqual(['@poolbench/contracts']);
  });

  it('every workspace declares the workspaces its sources import', () => {
    const undeclared: string[] = [];
    for (const w of all) {
      if (!existsSync(join(w.dir, 'src'))) continue;
      const used = new Set<string>();
      const walk = (d: string) => {
        for (const e of readdirSync(d, { withFileTypes: true })) {
          const p = join(d, e.name);
          if (e.isDirectory()) {
            if (e.name !== 'node_modules' && e.name !== 'generated') walk(p);
          } else if (/\.(ts|tsx|mjs)$/.test(e.name)) {
            for (const m of readFileSync(p, 'utf8').matchAll(/from '(@poolbench\/[a-z0-9-]+)/g))
              used.add(m[1]!);
          }
        }
      };
      walk(join(w.dir, 'src'));
      for (const u of used)
        if (u !== w.name && !w.deps.includes(u)) undeclared.push(`${w.name} → ${u}`);
    }
    expect(undeclared).toEqual([]);
  });

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
      // through the ~/ alias, as apps/web writes its imports
      writeFileSync(join(dir, 'a.ts'), 'export type A = 1;\n');
      writeFileSync(join(dir, 'd.ts'), "import type { E } from '~/e';\nexport type D = E;\n");
      writeFileSync(join(dir, 'e.ts'), "import type { D } from '~/d';\nexport type E = D;\n");
      expect(importCycles(dir)).toEqual([]);
      expect(importCycles(dir, dir).map((c) => c.map((f) => f.split('/').pop()))).toEqual([
        ['d.ts', 'e.ts'],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
