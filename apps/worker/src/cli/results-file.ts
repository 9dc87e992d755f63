import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../../../', import.meta.url));

/**
 * Commands people run (`make demo`, `make seeds`) never change tracked files, so a later
 * `git pull` is never refused for "local changes": they write their results to
 * `.data/results/<name>.md` (git-ignored). `WRITE_DOCS=1` is the developers' switch that puts
 * them into the docs instead; `write` does that.
 */
export function saveResults(name: string, markdown: string, write: () => void): string {
  if (process.env.WRITE_DOCS === '1') {
    write();
    return 'docs';
  }
  const dir = join(process.env.POOLBENCH_DATA_DIR ?? join(REPO, '.data'), 'results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}.md`);
  writeFileSync(file, `${markdown}\n`);
  console.log(`${name}: results written to ${file} (WRITE_DOCS=1 puts them into the docs)`);
  return file;
}
