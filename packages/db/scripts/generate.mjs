#!/usr/bin/env node
// Runs `prisma generate` only when the schema or the Prisma version changed. The schema-engine
// env var stops the CLI from downloading a native engine it does not need for generate (no
// internet here; see ENVIRONMENT.md).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const pkgDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(pkgDir, 'package.json'));
const prismaVersion = require('prisma/package.json').version;
const schema = readFileSync(join(pkgDir, 'prisma/schema.prisma'));
const hash = createHash('sha256').update(schema).update(prismaVersion).digest('hex');
const stamp = join(pkgDir, 'src/generated/.stamp');
if (existsSync(stamp) && readFileSync(stamp, 'utf8') === hash && process.argv[2] !== '--force') {
  console.log('[db] prisma client up to date');
  process.exit(0);
}
execFileSync(process.execPath, [require.resolve('prisma/build/index.js'), 'generate'], {
  cwd: pkgDir,
  stdio: 'inherit',
  env: {
    ...process.env,
    PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? '/bin/true',
    PRISMA_HIDE_UPDATE_MESSAGE: '1',
  },
});
writeFileSync(stamp, hash);
