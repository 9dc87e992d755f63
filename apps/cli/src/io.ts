import type { ProgressSink } from './wait';

/** Where a command reads its environment and writes its output (the process's, or a test's). */
export interface Io {
  env: NodeJS.ProcessEnv;
  stdout: ProgressSink;
  stderr: ProgressSink;
}
