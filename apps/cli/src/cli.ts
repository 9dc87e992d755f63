// The process entry: both bin/poolbench.js (through tsx, in a checkout) and the bundle the
// PoolBench server serves (dist/poolbench.mjs, plain node) start here.
import { main } from './main';

process.exitCode = await main(process.argv.slice(2), {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
});
