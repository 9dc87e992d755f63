import { defineConfig } from 'prisma/config';

// Prisma 7 reads connection URLs from here, not from the schema. Only the CLI uses it;
// the app connects through the pg driver adapter (src/client.ts).
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: {
    url: process.env.DATABASE_URL ?? 'postgresql://poolbench:poolbench@127.0.0.1:54329/poolbench',
  },
});
