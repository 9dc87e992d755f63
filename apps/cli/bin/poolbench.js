#!/usr/bin/env node
// Runs the TypeScript source through tsx, so the CLI needs no build step inside the monorepo.
// Outside it, use the one-file bundle the PoolBench server serves at /api/v1/cli/poolbench.mjs.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');
