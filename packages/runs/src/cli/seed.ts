import { createDb, DEMO_EMAIL, DEMO_PASSWORD } from '@poolbench/db';
import { seed } from '../seed/seed';

const db = createDb({ applicationName: 'poolbench-seed' });
try {
  await seed(db);
  console.log(`[db] seed ok (demo login ${DEMO_EMAIL} / ${DEMO_PASSWORD})`);
} catch (err) {
  console.error(`[db] seed failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
} finally {
  await db.$disconnect();
}
