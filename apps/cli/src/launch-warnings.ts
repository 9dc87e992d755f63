import type { Experiment } from './types';
import type { ProgressSink } from './wait';

/**
 * What the server warns about a launch (no worker online …), one stderr line each: the launch
 * stands and the exit code does not change, but a CI log must say why nothing moves.
 */
export function writeWarnings(e: Pick<Experiment, 'warnings'>, io: { stderr: ProgressSink }) {
  for (const w of e.warnings ?? []) io.stderr.write(`warning: ${w.message}\n`);
}
