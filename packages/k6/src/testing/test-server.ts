import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const TEST_SERVER_BIN = fileURLToPath(new URL('../../bin/testserver', import.meta.url));

export interface TestServer {
  url: string;
  pid: number;
  close(): Promise<void>;
}

/** Starts packages/k6/bin/testserver (built by scripts/build-k6.sh) on a free loopback port. */
export function startTestServer(bin = TEST_SERVER_BIN): Promise<TestServer> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ['-addr', '127.0.0.1:0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${bin} printed no URL within 10 s`));
    }, 10_000);
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(
        new Error(
          `cannot start ${bin}: ${err.message}; run "bash packages/k6/scripts/build-k6.sh"`,
        ),
      );
    });
    createInterface({ input: child.stdout }).once('line', (url) => {
      clearTimeout(timer);
      resolve({
        url,
        pid: child.pid ?? -1,
        close: async () => {
          child.kill('SIGTERM');
          await exited;
        },
      });
    });
  });
}
