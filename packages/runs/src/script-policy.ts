import { InvalidInputError, type Db, type Prisma } from '@poolbench/db';
import { SCRIPT_TEMPLATE } from '@poolbench/scenarios';

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

/** Refuses, naming the field, when the team does not allow its own k6 scripts. */
export async function assertScriptScenariosAllowed(db: Tx, teamId: string, field: string) {
  if (!(await scriptScenariosAllowed(db, teamId)))
    throw new InvalidInputError(field, SCRIPTS_OFF_MESSAGE);
}

/**
 * Refuses, naming the field, to create runs of a team's own k6 script when the team does not allow
 * them: every place that creates Run rows (launch, advisor start and its next steps, extending an
 * experiment) asks this just before it does, with the templates of the scenarios it runs.
 */
export async function assertRunsAllowedByScriptPolicy(
  db: Tx,
  teamId: string,
  templateIds: Iterable<string | null | undefined>,
  field: string,
) {
  if ([...templateIds].includes(SCRIPT_TEMPLATE))
    await assertScriptScenariosAllowed(db, teamId, field);
}
