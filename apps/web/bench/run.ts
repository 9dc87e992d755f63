// `make bench` entry (scripts/bench.sh runs `npx tsx apps/web/bench/run.ts` from the repo root).
// The web app's code imports `~/…`, which only the web tsconfig maps, so the benchmarks run in a
// child tsx with that tsconfig. Each benchmark file writes its own section of docs/benchmarks.md.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const web = join(here, '..');
let failed = false;
for (const file of ['server-time.ts', 'scale.ts', 'render.ts']) {
  const r = spawnSync('npx', ['tsx', '--tsconfig', join(web, 'tsconfig.json'), join(here, file)], {
    stdio: 'inherit',
    cwd: join(web, '..', '..'),
  });
  if (r.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
