import { parseArgs } from 'node:util';
import { CONNECTION_OPTIONS, connection } from './args';
import { createClient } from './client';
import { EXIT, UsageError } from './exit-codes';
import type { Io } from './io';

interface CancelAnswer {
  canceled: number;
  cancelRequested: number;
  alreadyFinished: number;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * `poolbench cancel <experiment id>`: every queued run of the experiment is canceled at once and
 * every running one is stopped through its cancel flag (POST /api/v1/experiments/{id}/cancel).
 */
export async function cancelCommand(args: string[], io: Io): Promise<number> {
  const parsed = (() => {
    try {
      return parseArgs({
        args,
        allowPositionals: true,
        options: CONNECTION_OPTIONS,
      });
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
  })();
  const [id, ...extra] = parsed.positionals;
  if (!id || extra.length)
    throw new UsageError('give exactly one experiment id: poolbench cancel <experiment id>');
  const { url, token } = connection(parsed.values, io.env);
  const client = createClient({ baseUrl: url, token });
  const r = await client.post<CancelAnswer>(`/experiments/${encodeURIComponent(id)}/cancel`, {});
  io.stdout.write(
    `${plural(r.canceled, 'queued run', 'queued runs')} canceled; ${plural(r.cancelRequested, 'running run stops', 'running runs stop')} within seconds; ${plural(r.alreadyFinished, 'run had', 'runs had')} already ended\n`,
  );
  return EXIT.pass;
}
