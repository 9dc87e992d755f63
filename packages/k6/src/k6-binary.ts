import { access, constants } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { AppError } from '@poolbench/contracts/errors';

/**
 * packages/k6/bin/k6, built by scripts/build-k6.sh. Computed when asked: a bundler (the web app's)
 * rewrites import.meta.url, and a caller there passes its own path.
 */
export function defaultK6Bin(): string {
  return fileURLToPath(new URL('../bin/k6', import.meta.url));
}

/** k6 cannot be started (missing, not executable): the worker records it on the run as `k6_missing`. */
export class K6BinaryError extends AppError<'k6_missing'> {
  constructor(message: string) {
    super('k6_missing', message);
    this.name = 'K6BinaryError';
  }
}

/** The binary to run: explicit option, else $POOLBENCH_K6_BIN, else the repo build. */
export function resolveK6Bin(explicit?: string): string {
  return explicit ?? process.env.POOLBENCH_K6_BIN ?? defaultK6Bin();
}

export async function assertExecutable(bin: string): Promise<void> {
  try {
    await access(bin, constants.X_OK);
  } catch {
    throw new K6BinaryError(
      `k6 binary ${bin} is missing or not executable: build it with "bash packages/k6/scripts/build-k6.sh" ` +
        'or point POOLBENCH_K6_BIN at a k6 built with the poolbench output',
    );
  }
}
