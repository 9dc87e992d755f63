import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The lint rule of issue 18, as a test: a cast is a place where a parse belongs. No `as never`
 * anywhere, and JSON columns are cast only at their parse points (this folder's json-column.ts
 * and parse-rows.ts), so every other reader gets a type the schema has checked.
 */
const REPO = fileURLToPath(new URL('../../../../', import.meta.url));
const ROOTS = [
  'apps/web/src',
  'apps/web/e2e',
  'apps/worker/src',
  'apps/worker/test',
  'apps/cli/src',
  'packages',
];
const PARSE_POINTS = new Set([
  'packages/db/src/json/json-column.ts',
  'packages/db/src/json/parse-rows.ts',
]);
const SKIP = /(^|\/)(node_modules|generated|\.next|dist)(\/|$)/;

const COLUMNS =
  'summary|environment|thresholdResults|poolConfigSnapshot|scenarioSnapshot|targetSnapshot|requestDefaults|managed|selection|responseBody|statusCounts|checks|custom|subMetrics|params|thresholds';
const RULES: [string, RegExp][] = [
  ['as never', /\bas never\b/],
  ['Prisma JSON input cast', /as (unknown as )?Prisma\.(InputJsonValue|JsonValue|JsonObject)/],
  [
    'JSON column cast',
    new RegExp(`\\.(${COLUMNS})\\b\\)?(\\s*\\?\\?\\s*[^)]{0,20}\\))?\\s+as\\s+(?!const\\b)`),
  ],
];

function* sourceFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const rel = relative(REPO, path);
    if (SKIP.test(rel)) continue;
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (/\.(ts|tsx)$/.test(name) && !name.endsWith('.d.ts')) yield rel;
  }
}

export function findJsonCasts(): string[] {
  const found: string[] = [];
  for (const root of ROOTS) {
    for (const rel of sourceFiles(join(REPO, root))) {
      if (PARSE_POINTS.has(rel) || rel === 'packages/db/src/json/no-json-casts.test.ts') continue;
      readFileSync(join(REPO, rel), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (/^\s*(\*|\/\/|\/\*)/.test(line)) return; // prose, not code
          for (const [rule, re] of RULES)
            if (re.test(line)) found.push(`${rel}:${i + 1} ${rule}: ${line.trim().slice(0, 140)}`);
        });
    }
  }
  return found;
}

describe('no JSON casts outside the parse points', () => {
  it('finds none (parse the column with @poolbench/db parseRun/readJson, write it with toJson/writeJson)', () => {
    expect(findJsonCasts()).toEqual([]);
  });

  it('would catch each kind of cast', () => {
    const lines = [
      'const s = run.summary as RunSummary;',
      'x(cfg as never);',
      'data: { params: p as Prisma.InputJsonValue }',
      'const rd = (t.requestDefaults ?? {}) as { path?: string };',
    ];
    for (const line of lines)
      expect(
        RULES.some(([, re]) => re.test(line)),
        line,
      ).toBe(true);
    expect(RULES.some(([, re]) => re.test("const t = { metric: 'x' } as const;"))).toBe(false);
  });
});
