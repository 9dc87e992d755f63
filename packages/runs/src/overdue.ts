/** How the lifecycle sweeper asks a driver for the experiments it left behind. */
export interface OverdueOptions {
  /** at most this many experiments a pass (picked at random, so none waits behind others) */
  limit?: number;
  /** an experiment whose step failed again: the others of the pass still get theirs */
  onError?: (experimentId: string, err: unknown) => void;
}

/**
 * Runs `work` for each overdue experiment in turn; one that throws is reported to `onError` and
 * does not stop the rest. Answers the ids `work` said it resumed.
 */
export async function eachOverdue(
  rows: ReadonlyArray<{ id: string }>,
  opts: OverdueOptions,
  work: (experimentId: string) => Promise<boolean>,
): Promise<string[]> {
  const resumed: string[] = [];
  for (const { id } of rows) {
    try {
      if (await work(id)) resumed.push(id);
    } catch (err) {
      opts.onError?.(id, err);
    }
  }
  return resumed;
}
