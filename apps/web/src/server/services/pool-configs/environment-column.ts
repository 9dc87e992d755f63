import { Prisma, toJson } from '@poolbench/db';
import type { LabEnvironment } from '@poolbench/contracts';

/** A pool config's environment overrides as the column stores them: SQL NULL when there are none. */
export function envColumn(
  env: LabEnvironment | null | undefined,
): Prisma.InputJsonValue | typeof Prisma.DbNull {
  return env && Object.keys(env).length > 0 ? toJson.poolEnvironment(env) : Prisma.DbNull;
}
