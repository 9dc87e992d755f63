/**
 * Seed questions the pool-size advisor answers (docs/advisor.md): each names a seed preset's pool
 * config (the advisor's base: its max pool size is searched, the rest stays) and scenario, and
 * the SLO and range to search. Seed 002 asked "which pool size, with one instance or three behind
 * nginx?" at fixed rates; the advisor answers it per instance count at the seed's 1000 req/s
 * (scaled like the reproduction), where the seed's 5 and 10 connections gave p99 56 and 35 ms.
 */
export interface SeedAdvisorQuestion {
  id: string;
  seed: string;
  presetId: string;
  title: string;
  /** the preset's pool config (by its name in the preset) whose maxConns is searched */
  poolConfig: string;
  /** the preset's scenario id */
  scenario: string;
  min: number;
  max: number;
  objective: { kind: 'slo'; p99Ms: number; errorRate: number };
  budgetRuns: number;
}

export const SEED_ADVISOR_QUESTIONS: readonly SeedAdvisorQuestion[] = [
  {
    id: 'seed-002-one-instance',
    seed: '002',
    presetId: 'seed-002-pool-size-fixed-rate',
    title: 'One instance: the smallest pool with p99 ≤ 50 ms at the seed’s 1000 req/s (scaled)',
    poolConfig: '10 conns x 1 instance',
    scenario: 'rate-1000',
    min: 1,
    max: 16,
    objective: { kind: 'slo', p99Ms: 50, errorRate: 0.001 },
    budgetRuns: 24,
  },
  {
    id: 'seed-002-three-instances',
    seed: '002',
    presetId: 'seed-002-pool-size-fixed-rate',
    title:
      'Three instances behind nginx: the smallest pool per instance with p99 ≤ 50 ms at the seed’s 1000 req/s (scaled)',
    poolConfig: '10 conns x 3 instances',
    scenario: 'rate-1000',
    min: 1,
    max: 16,
    objective: { kind: 'slo', p99Ms: 50, errorRate: 0.001 },
    budgetRuns: 24,
  },
];

export const SEED_ADVISOR_QUESTION_IDS = SEED_ADVISOR_QUESTIONS.map((q) => q.id) as [
  string,
  ...string[],
];
