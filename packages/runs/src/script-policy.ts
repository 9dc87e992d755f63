import { RunsRefusedError } from './runs-refused';
import { type Db, type Prisma } from '@poolbench/db';

type Tx = Prisma.TransactionClient | Db;

/** Whether the team's members may import and run their own k6 scripts (its admins decide). */
export async function scriptScenariosAllowed(db: Tx, teamId: string): Promise<boolean> {
  const team = await db.team.findUnique({
    where: { id: teamId },
    select: { scriptScenarios: true },
  });
  return team?.scriptScenarios ?? false;
}

/** The message every refusal gives, so the UI, REST and a run's error read the same. */
export const SCRIPTS_OFF_MESSAGE =
  "this team's admins turned off k6 scripts (Settings → k6 scripts)";

/**
 * Refuses, naming the field, when the team does not allow its own k6 scripts: asked before a
 * script is saved, and by `createRuns` before runs of one are made.
 */
export async function assertScriptScenariosAllowed(db: Tx, teamId: string, field: string) {
  if (!(await scriptScenariosAllowed(db, teamId)))
    throw new RunsRefusedError(field, SCRIPTS_OFF_MESSAGE, false);
}
