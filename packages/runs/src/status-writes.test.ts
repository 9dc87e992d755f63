import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const OWNER = 'packages/runs/';

/** The balanced text from `open` (an opening bracket) to its closing bracket. */
function balanced(src: string, open: number): string {
  const [o, c] = src[open] === '(' ? ['(', ')'] : ['{', '}'];
  let depth = 0;
  for (let i = open; i < src.length; i++) {
    if (src[i] === o) depth++;
    else if (src[i] === c && --depth === 0) return src.slice(open, i + 1);
  }
  return src.slice(open);
}

/** The `data` (or upsert's create/update) objects of a Prisma write call's arguments. */
function dataObjects(args: string): string[] {
  return [...args.matchAll(/\b(data|create|update)\s*:\s*\{/g)].map((m) =>
    balanced(args, m.index + m[0].length - 1),
  );
}

const WRITE_CALL =
  /\.(run|experiment)\.(update|updateMany|updateManyAndReturn|upsert|create|createMany|createManyAndReturn)\s*\(/g;
const RAW_UPDATE = /UPDATE\s+"?(Run|Experiment)"?\s+SET[^;`]*\bstatus\b/gi;

/** Places in a source text that write a run's or an experiment's status. */
export function statusWrites(src: string): number[] {
  const lines: number[] = [];
  const lineOf = (i: number) => src.slice(0, i).split('\n').length;
  for (const m of src.matchAll(WRITE_CALL)) {
    const args = balanced(src, m.index + m[0].length - 1);
    if (dataObjects(args).some((d) => /\bstatus\s*[:,}]/.test(d))) lines.push(lineOf(m.index));
  }
  for (const m of src.matchAll(RAW_UPDATE)) lines.push(lineOf(m.index));
  return lines;
}

function* sources(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    if (
      [
        'node_modules',
        'generated',
        '.next',
        'dist',
        'bin',
        '.turbo',
        'e2e',
        'test',
        'testing',
        'bench',
      ].includes(name)
    )
      continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* sources(p);
    else if (/\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name)) yield p;
  }
}

describe('one owner of run and experiment status', () => {
  it('finds status writes in the shapes the code uses (so the guard below can fail)', () => {
    expect(
      statusWrites(`await db.run.updateMany({ where: { id }, data: { status: 'canceled' } });`),
    ).toEqual([1]);
    expect(
      statusWrites(
        `x\nawait tx.experiment.update({\n  where: { id },\n  data: { status, finishedAt },\n});`,
      ),
    ).toEqual([2]);
    expect(
      statusWrites('await db.$executeRaw`UPDATE "Run" SET "status" = \'failed\' WHERE id = ${id}`'),
    ).toEqual([1]);
    expect(statusWrites(`await db.run.update({ where: { id }, data: { notes } });`)).toEqual([]);
    expect(statusWrites(`await db.run.findMany({ where: { status: 'queued' } });`)).toEqual([]);
    expect(
      statusWrites(
        `await db.run.updateMany({ where: { id, status: 'running' }, data: { notes } });`,
      ),
    ).toEqual([]);
    expect(statusWrites(`await db.run.create({ data: { id, status: 'succeeded' } });`)).toEqual([
      1,
    ]);
  });

  it('nothing outside packages/runs writes Run.status or Experiment.status', () => {
    const offenders: string[] = [];
    for (const root of ['apps', 'packages']) {
      for (const file of sources(join(REPO, root))) {
        const rel = relative(REPO, file);
        if (rel.startsWith(OWNER)) continue;
        for (const line of statusWrites(readFileSync(file, 'utf8')))
          offenders.push(`${rel}:${line}`);
      }
    }
    expect(offenders, 'change run/experiment status only through @poolbench/runs').toEqual([]);
  });
});
