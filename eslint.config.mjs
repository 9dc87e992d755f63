// One flat config for the whole monorepo.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/.next/**',
      '**/dist/**',
      '**/bin/**',
      '**/.data/**',
      '**/.cache/**',
      '**/test-results/**',
      '**/src/generated/**',
      '**/next-env.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  // House rule 1: only packages/db touches the Prisma client.
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    ignores: ['packages/db/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '@prisma/client',
                '@prisma/client/*',
                '@prisma/adapter-pg',
                '**/generated/prisma*',
              ],
              message:
                'Only packages/db may import the Prisma client; import from @poolbench/db instead.',
            },
          ],
        },
      ],
    },
  },
  // React's rules of hooks and complete effect dependencies, in React components and hooks
  // (the web app lints from its own folder, so the pattern is not rooted at the repository).
  {
    files: ['**/*.tsx', '**/use-*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
);
