/** The one place the db package reads its connection string. */
export const DEFAULT_DATABASE_URL = 'postgresql://poolbench:poolbench@127.0.0.1:54329/poolbench';

export function databaseUrl(): string {
  return process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
}
