import { writeFileSync } from 'node:fs';
import { parseRunArgs, USAGE, type RunOptions } from './args';
import { baselineCommand } from './baseline';
import { cancelCommand } from './cancel';
import { adviseCommand } from './advise';
import { changesCommand } from './changes';
import { createClient } from './client';
import { EXIT, UsageError, exitForError } from './exit-codes';
import { decide } from './gate';
import { applyHypothesisGate } from './hypothesis-gate';
import { idempotencyKey } from './idempotency-key';
import { writeWarnings } from './launch-warnings';
import { toJUnit } from './report/junit';
import { toMarkdown } from './report/markdown';
import { toText } from './report/text';
import type { Comparison, Experiment, ExperimentSummary, RunResult } from './types';
import type { Io } from './io';
import { VERSION } from './version';
import { waitForExperiment } from './wait';

export type { Io };

/** Returns the exit code: 0 pass, 1 regression/threshold, 2 usage, 3 PoolBench or infrastructure. */
export async function main(argv: string[], io: Io): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    io.stdout.write(`${USAGE}\n`);
    return command ? EXIT.pass : EXIT.usage;
  }
  if (command === '--version' || command === 'version') {
    io.stdout.write(`poolbench ${VERSION}\n`);
    return EXIT.pass;
  }
  if (
    command === 'cancel' ||
    command === 'advise' ||
    command === 'changes' ||
    command === 'baseline'
  ) {
    try {
      const sub = {
        cancel: cancelCommand,
        advise: adviseCommand,
        changes: changesCommand,
        baseline: baselineCommand,
      }[command];
      return await sub(rest, io);
    } catch (err) {
      io.stderr.write(`poolbench: ${(err as Error).message}\n`);
      return err instanceof UsageError ? EXIT.usage : exitForError(err);
    }
  }
  if (command !== 'run') {
    io.stderr.write(`poolbench: unknown command "${command}"\n\n${USAGE}\n`);
    return EXIT.usage;
  }
  let opts: RunOptions;
  try {
    if (rest.includes('--help') || rest.includes('-h')) {
      io.stdout.write(`${USAGE}\n`);
      return EXIT.pass;
    }
    opts = parseRunArgs(rest, io.env);
  } catch (err) {
    io.stderr.write(
      `poolbench: ${(err as Error).message}\nRun "poolbench run --help" for the options.\n`,
    );
    return err instanceof UsageError ? EXIT.usage : EXIT.infra;
  }
  try {
    const result = await run(opts, io);
    if (opts.json) io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    else io.stdout.write(`${toText(result)}\n`);
    return result.exitCode;
  } catch (err) {
    // The shared table of error codes says whether an API error is the caller's input (bad id,
    // invalid scenario: usage) or PoolBench / infrastructure (token, outage: infra).
    io.stderr.write(`poolbench: ${(err as Error).message}\n`);
    return exitForError(err);
  }
}

async function run(opts: RunOptions, io: Io): Promise<RunResult> {
  const client = createClient({ baseUrl: opts.url, token: opts.token });
  const key = idempotencyKey(io.env, opts.start, opts.idempotencyKey);
  let experiment = await client.post<Experiment>('/experiments', opts.start, {
    'Idempotency-Key': key,
  });
  io.stderr.write(
    `started ${experiment.name} (${experiment.id}) with ${experiment.progress.total} runs: ${experiment.webUrl}\n`,
  );
  writeWarnings(experiment, io);

  const shareUrl = opts.share ? await share(client, experiment.id, io) : null;
  if (!opts.wait) {
    return {
      experiment,
      summary: null,
      comparison: null,
      shareUrl,
      outcome: 'started',
      exitCode: EXIT.pass,
      problems: [],
    };
  }
  // progress goes to stderr even with --json (stdout carries only the JSON): a CI log must not sit
  // silent for the minutes a load test takes
  experiment = await waitForExperiment(client, experiment.id, {
    timeoutMs: opts.timeoutMs,
    pollMs: opts.pollMs,
    progress: io.stderr,
  });
  const summary = await client.get<ExperimentSummary>(`/experiments/${experiment.id}/summary`);
  const against: Record<string, string> | null =
    opts.baseline !== null
      ? { baseline: opts.baseline }
      : opts.gateBase !== null
        ? { base: opts.gateBase }
        : null;
  const query = new URLSearchParams(
    against
      ? {
          ...against,
          ...(opts.metrics ? { metrics: opts.metrics.join(',') } : {}),
          ...(opts.window ? { from: String(opts.window.from), to: String(opts.window.to) } : {}),
        }
      : {},
  );
  const comparison = against
    ? await client.get<Comparison>(`/experiments/${experiment.id}/compare?${query}`)
    : null;
  const gated = decide(opts.failOn, experiment, summary, comparison, opts.metrics, opts.window);
  const result: RunResult = {
    experiment,
    summary,
    comparison,
    shareUrl,
    ...applyHypothesisGate(gated, experiment, opts.failOnHypothesis),
  };

  if (opts.saveBaseline && result.exitCode === EXIT.pass) {
    await client.post('/baselines', { name: opts.saveBaseline, experimentId: experiment.id });
    io.stderr.write(`saved as baseline "${opts.saveBaseline}"\n`);
  }
  if (opts.junit) writeFileSync(opts.junit, toJUnit(result));
  if (opts.markdown) writeFileSync(opts.markdown, toMarkdown(result));
  return result;
}

/** A share link is a convenience: when the server cannot make one, say so and go on. */
async function share(
  client: ReturnType<typeof createClient>,
  id: string,
  io: Io,
): Promise<string | null> {
  try {
    const s = await client.post<{ url: string }>(`/experiments/${id}/share`, {});
    io.stderr.write(`share link: ${s.url}\n`);
    return s.url;
  } catch (err) {
    io.stderr.write(`no share link: ${(err as Error).message}\n`);
    return null;
  }
}
