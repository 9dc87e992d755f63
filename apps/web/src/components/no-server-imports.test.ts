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
 * Client components share what they need with the server through src/lib (issue 18 leftovers):
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
