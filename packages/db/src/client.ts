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
}

/** Creates a Prisma client on the pg driver adapter (no native query engine needed). */
export function createDb(opts: CreateDbOptions = {}): Db {
  const adapter = new PrismaPg({
    connectionString: opts.url ?? databaseUrl(),
    max: opts.max ?? 10,
    application_name: opts.applicationName ?? 'poolbench',
  });
  return new PrismaClient({ adapter });
}
