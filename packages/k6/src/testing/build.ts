import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('../../scripts/build-k6.sh', import.meta.url));

/** Builds bin/k6 and bin/testserver if their sources changed (instant otherwise), so tests never run a stale binary. */
export function ensureBuilt(): void {
  execFileSync('bash', [SCRIPT], { stdio: ['ignore', 'ignore', 'inherit'] });
}
