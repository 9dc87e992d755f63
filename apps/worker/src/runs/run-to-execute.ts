import { installationId, openedRanges, parseRun, parseTarget, type Db } from '@poolbench/db';
import { targetHeadersOf } from '../targets/target-headers';

/**
 * A run as a worker executes it, the same for a single run, a distributed run's leader and each
 * of its generators: the row with its target parsed, the installation's opened ranges and identity
 * (what the target's addresses are judged against), and a URL target's non-secret headers for
 * every request. The headers are read from the raw column: a bad header fails the run
 * (invalid_snapshot) before its target starts, it does not vanish.
 */
export async function runToExecute(db: Db, runId: string) {
  const row = await db.run.findUniqueOrThrow({
    where: { id: runId },
    include: {
      target: true,
      team: { select: { allowedHosts: { select: { pattern: true } } } },
    },
  });
  return {
    ...parseRun(row),
    target: parseTarget(row.target),
    openedRanges: await openedRanges(db),
    installation: await installationId(db),
    targetHeaders: row.target.kind === 'url' ? targetHeadersOf(row.target.requestDefaults) : {},
  };
}
