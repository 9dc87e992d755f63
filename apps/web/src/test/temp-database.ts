import { createDb, type Db } from '@poolbench/db';
import { withTempDatabase as tempDatabase } from '@poolbench/db/testing';

/** packages/db's fresh migrated database for one test file, with a Prisma client on it for the web's services. */
export async function withTempDatabase(
  label: string,
): Promise<{ db: Db; url: string; dispose: () => Promise<void> }> {
  const t = await tempDatabase(label);
  const db = createDb({ url: t.url, max: 4, applicationName: 'poolbench-web-test' });
  return {
    db,
    url: t.url,
    dispose: async () => {
      await db.$disconnect();
      await t.dispose();
    },
  };
}
