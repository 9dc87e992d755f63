// Bundles the CLI into one dependency-free ESM file, dist/poolbench.mjs, which the PoolBench web
// app serves at /api/v1/cli/poolbench.mjs, so CI needs `curl` and `node`, not an npm package.
// dist/poolbench.json records its version, size and sha256. The output is deterministic, so
// turbo's cache (inputs: this package's files) makes a second build free.
import { createHash } from 'node:crypto';
import { builtinModules } from 'node:module';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const outfile = join(root, 'dist', 'poolbench.mjs');
mkdirSync(dirname(outfile), { recursive: true });

const result = await build({
  entryPoints: [join(root, 'src', 'cli.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  charset: 'utf8',
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
  banner: {
    js: `#!/usr/bin/env node\n// poolbench ${version}: the PoolBench CI CLI in one file (Node >= 20.19, no dependencies). Usage: node poolbench.mjs run --help`,
  },
});

// Only Node's own modules may stay imports; anything else would need an npm install on the CI runner.
const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
const foreign = Object.values(result.metafile.outputs).flatMap((o) =>
  o.imports.filter((i) => i.external && !builtins.has(i.path)).map((i) => i.path),
);
if (foreign.length)
  throw new Error(
    `the CLI bundle must not import packages, found: ${[...new Set(foreign)].join(', ')}`,
  );

const bytes = readFileSync(outfile);
const manifest = {
  name: 'poolbench',
  version,
  file: 'poolbench.mjs',
  bytes: bytes.length,
  sha256: createHash('sha256').update(bytes).digest('hex'),
};
writeFileSync(join(root, 'dist', 'poolbench.json'), `${JSON.stringify(manifest, null, 2)}\n`);
console.log(
  `dist/poolbench.mjs: poolbench ${version}, ${(bytes.length / 1024).toFixed(1)} KiB, sha256 ${manifest.sha256}`,
);
