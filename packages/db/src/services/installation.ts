import { randomUUID } from 'node:crypto';
import type { DbOrTx } from '../client';

/**
 * This installation's id: made once, on first use, by whichever process asks first (two racing
 * both read the one row that won). Stable for the life of the installation's database.
 */
export async function installationId(db: DbOrTx): Promise<string> {
  const found = await db.installation.findUnique({ where: { singleton: true } });
  if (found) return found.id;
  await db.installation.createMany({
    data: [{ singleton: true, id: randomUUID() }],
    skipDuplicates: true,
  });
  const row = await db.installation.findUniqueOrThrow({ where: { singleton: true } });
  return row.id;
}
