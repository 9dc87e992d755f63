import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/**
 * Client components share what they need with the server through src/lib:
 * an import of ~/server/services/* from a 'use client' file, even of a type, ties the client to
 * server code and is how server-only modules end up in the browser bundle.
 */
describe('client components', () => {
  it('never import ~/server/services/*', () => {
    const offenders = files(SRC)
      .filter((f) => /^\s*['"]use client['"]/.test(readFileSync(f, 'utf8')))
      .filter((f) => /from\s+['"]~\/server\/services\//.test(readFileSync(f, 'utf8')))
      .map((f) => relative(SRC, f));
    expect(offenders).toEqual([]);
  });
});

/**
 * Motion only for those who did not ask for less (WCAG 2.3.3): every Tailwind animation a
 * component draws goes through the `motion-safe:` variant, which prefers-reduced-motion turns off.
 * e2e/accessibility.spec.ts checks that the built CSS stops them under that preference.
 */
describe('components', () => {
  it('animate only under motion-safe', () => {
    const offenders = files(SRC)
      .filter((f) => !f.endsWith('.test.ts'))
      .flatMap((f) =>
        // each class with its variants (md:, hover: …); animate-none stops motion, so it is free
        [...readFileSync(f, 'utf8').matchAll(/[\w:-]*animate-[a-z][\w-]*/g)]
          .map((m) => m[0])
          .filter((c) => !c.split(':').includes('motion-safe') && !c.endsWith('animate-none'))
          .map((c) => `${relative(SRC, f)}: ${c}`),
      );
    expect(offenders).toEqual([]);
  });
});
