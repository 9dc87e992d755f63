import { createDb, type Db } from '@poolbench/db';
import { env } from './env';

// One client per server process (dev hot reload would otherwise leak pools).
const g = globalThis as unknown as { __poolbenchDb?: Db };
export const db: Db = (g.__poolbenchDb ??= createDb({
  url: env.DATABASE_URL,
  applicationName: 'poolbench-web',
}));
