#!/usr/bin/env node
// Runs the TypeScript source through tsx, so the CLI needs no build step inside the monorepo.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/main.ts');
process.exitCode = await main(process.argv.slice(2), { env: process.env, stdout: process.stdout, stderr: process.stderr });
