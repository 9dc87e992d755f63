import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/prisma/client';
import { databaseUrl } from './env';

export type Db = PrismaClient;
/** A client or an interactive transaction: services accept either. */
export type Tx = Omit<
  PrismaClient,
  '$connect' | '$disconnect' | '$on' | '$transaction' | '$extends'
>;
export type DbOrTx = Db | Tx;

export interface CreateDbOptions {
  url?: string;
  /** Max connections of the underlying pg pool. */
  max?: number;
  applicationName?: string;
  /**
   * Postgres ends a session that sits idle inside a transaction this long (ms). No transaction of
   * ours waits that long between two statements; a session that does belongs to a client that is
   * gone without its socket closing (a host that lost power or its network), and the locks it holds
   * (a run's merge lock) would otherwise block every other worker until TCP gives up, hours later.
   */
  idleInTransactionMs?: number;
}

export const IDLE_IN_TRANSACTION_MS = 20_000;

/** Creates a Prisma client on the pg driver adapter (no native query engine needed). */
export function createDb(opts: CreateDbOptions = {}): Db {
  const adapter = new PrismaPg({
    connectionString: opts.url ?? databaseUrl(),
    max: opts.max ?? 10,
    application_name: opts.applicationName ?? 'poolbench',
    idle_in_transaction_session_timeout: opts.idleInTransactionMs ?? IDLE_IN_TRANSACTION_MS,
  });
  return new PrismaClient({ adapter });
}
