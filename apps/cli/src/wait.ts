import type { Client } from './client';
import type { Experiment } from './types';

export interface ProgressSink {
  write(s: string): unknown;
  isTTY?: boolean;
}

function line(e: Experiment, elapsedMs: number): string {
  const by = Object.entries(e.progress.byStatus)
    .map(([s, n]) => `${n} ${s}`)
    .join(', ');
  return `${e.name}: ${e.progress.done}/${e.progress.total} runs done (${by}) · ${Math.round(elapsedMs / 1000)} s`;
}

/**
 * Polls until every run reached a terminal status. On a terminal the progress line is rewritten in
 * place; in CI logs (no TTY) a line is printed only when the progress changes, so logs stay short.
 */
export async function waitForExperiment(
  client: Client,
  id: string,
  opts: { timeoutMs: number; pollMs: number; progress: ProgressSink | null; now?: () => number },
): Promise<Experiment> {
  const now = opts.now ?? Date.now;
  const started = now();
  let last = '';
  for (;;) {
    const e = await client.get<Experiment>(`/experiments/${encodeURIComponent(id)}`);
    const text = line(e, now() - started);
    if (opts.progress?.isTTY) opts.progress.write(`\r\x1b[2K${text}`);
    else if (opts.progress && text.replace(/ · \d+ s$/, '') !== last)
      opts.progress.write(`${text}\n`);
    last = text.replace(/ · \d+ s$/, '');
    if (e.finished) {
      if (opts.progress?.isTTY) opts.progress.write('\n');
      return e;
    }
    if (now() - started > opts.timeoutMs) {
      if (opts.progress?.isTTY) opts.progress.write('\n');
      throw new Error(
        `gave up waiting after ${Math.round(opts.timeoutMs / 60_000)} min; the experiment keeps running: ${e.webUrl}`,
      );
    }
    await new Promise((r) => setTimeout(r, opts.pollMs));
  }
}
