import type { PoolConfigInput } from '../pool/pool-config-schema';
import type { PresetDefinition } from './preset-definition';
import { seed001Scenarios } from './seed-001';

// Seed 001 as the write-up ran it: the same SELECT in Go, Bun and PHP-FPM against MySQL (here
// Debian's MariaDB), each returning JSON its own way (Go streams with json.Encoder, Bun
// JSON.stringify's the whole result, PHP json_encode's fetchAll). Every runtime gets the same
// connection budget of 10: Go's pool max, Bun.sql's max, PHP-FPM's pm.max_children.
const CONNS = 10;
const RUNTIMES: Array<{ name: string; config: PoolConfigInput }> = [
  {
    name: 'Go',
    config: {
      strategy: 'lazy',
      params: { maxConns: CONNS },
      environment: { runtime: 'go', database: 'mariadb' },
    },
  },
  {
    name: 'Bun',
    config: {
      strategy: 'lazy',
      params: { maxConns: CONNS },
      environment: { runtime: 'bun', database: 'mariadb' },
    },
  },
  // PHP's default: a connection per request (non-persistent PDO)
  {
    name: 'PHP-FPM',
    config: {
      strategy: 'per-request',
      params: { maxConns: CONNS },
      environment: { runtime: 'php-fpm', database: 'mariadb' },
    },
  },
];

const at = (poolConfig: string) => ({ poolConfig, scenario: 's1-10k-rows' });

export const seed001Runtimes: PresetDefinition = {
  id: 'seed-001-runtimes-mariadb',
  title: 'Seed 001 on the real stacks: Go vs Bun vs PHP-FPM on MariaDB',
  seed: '001',
  description:
    'Original: "10 000 rows x 40 fields, 250 VUs (ramp-up), 7 min; 5 000 x 40, 250 VUs, 7 min; 1 000 x 50, 300 VUs, 6.5 min; k6 thresholds error rate < 0.5 %, P95 < 30 s". Go 19.3 req/s (10k rows) with 77 MB peak memory, Bun 2.75 req/s with 425 MB, PHP 3.5 req/s with 99.9 % errors; the authors blamed the database link. Here the three runtimes read the same MariaDB on loopback (no link), each with 10 connections (Go pool max, Bun.sql max, PHP-FPM pm.max_children), so what differs is the runtime. Stage split and the 1 s think time are ours, as in the link preset.',
  scaling:
    'VUs and stage durations are multiplied by scale; rows, fields, thresholds and the 30 s request timeout are kept.',
  defaultScale: 0.1,
  seedsScale: 0.02,
  repeats: 5,
  hypotheses: [
    {
      base: at('Bun'),
      candidate: at('Go'),
      metric: 'rps',
      expect: 'better',
      band: 5,
      claim: 'Go serves more 10 000-row requests per second than Bun (seed: 19.3 vs 2.75 req/s).',
    },
    {
      base: at('PHP-FPM'),
      candidate: at('Go'),
      metric: 'rps',
      expect: 'better',
      band: 5,
      claim:
        'Go serves more 10 000-row requests per second than PHP-FPM (seed: 19.3 vs 3.5 req/s).',
    },
    {
      base: at('Bun'),
      candidate: at('Go'),
      metric: 'rssPeakBytes',
      expect: 'better',
      band: 10,
      claim: 'Go peaks at less memory than Bun returning 10 000 rows (seed: 77 MB vs 425 MB).',
    },
    {
      base: at('PHP-FPM'),
      candidate: at('Go'),
      metric: 'errorRate',
      expect: 'better',
      band: 1,
      claim: 'Go fails fewer requests than PHP-FPM at 10 000 rows (seed: PHP 99.9 % errors).',
    },
  ],
  build: (s) => ({
    scenarios: seed001Scenarios(s),
    poolConfigs: RUNTIMES,
  }),
};
