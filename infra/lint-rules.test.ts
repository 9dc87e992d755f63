import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

describe('house rule 1: only packages/db imports the Prisma client', () => {
  const eslint = new ESLint({ cwd: root });
  const lint = async (code: string, filePath: string) =>
    (await eslint.lintText(code, { filePath: join(root, filePath) }))[0]!.messages;

  it('rejects the Prisma client anywhere else', async () => {
    for (const [code, file] of [
      [
        "import { PrismaClient } from '@prisma/client';\nexport const c = PrismaClient;\n",
        'apps/web/src/server/x.ts',
      ],
      [
        "import { PrismaPg } from '@prisma/adapter-pg';\nexport const a = PrismaPg;\n",
        'apps/worker/src/x.ts',
      ],
      [
        "import { PrismaClient } from '../../packages/db/src/generated/prisma/client';\nexport const c = PrismaClient;\n",
        'apps/cli/src/x.ts',
      ],
    ] as const) {
      const messages = await lint(code, file);
      expect(
        messages.map((m) => m.ruleId),
        file,
      ).toContain('no-restricted-imports');
      expect(messages.find((m) => m.ruleId === 'no-restricted-imports')!.message).toMatch(
        /Only packages\/db may import the Prisma client/,
      );
    }
  });

  it('allows it inside packages/db and allows @poolbench/db elsewhere', async () => {
    expect(
      (
        await lint(
          "import { PrismaPg } from '@prisma/adapter-pg';\nexport const a = PrismaPg;\n",
          'packages/db/src/x.ts',
        )
      ).filter((m) => m.ruleId === 'no-restricted-imports'),
    ).toEqual([]);
    expect(
      (
        await lint(
          "import { createDb } from '@poolbench/db';\nexport const d = createDb;\n",
          'apps/web/src/server/x.ts',
        )
      ).filter((m) => m.ruleId === 'no-restricted-imports'),
    ).toEqual([]);
  });
});
