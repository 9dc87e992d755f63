export * from './hdr';
export * from './descriptive';
export * from './normal';
export { rank, type Ranking } from './ranks';
export { pMannWhitney, qMannWhitney } from './mann-whitney-distribution';
export * from './mann-whitney';
export * from './hodges-lehmann';
export * from './verdict';
export * from './warnings';
export * from './compare-options';
export * from './compare-samples';
export * from './compare-metrics';
export * from './benjamini-hochberg';
export * from './holm';
export * from './proportion';
export * from './run-summary';
export * from './build-run-summary';
export * from './run-checks';
export * from './run-custom-metrics';
export * from './run-metrics';
export * from './noise-floor-options';
export * from './noise-floor';
export * from './decide-hypothesis';
export * from './repeats-to-resolve';
export * from './gate-outcome';
export * from './gate-cell-state';
export * from './run-insights';
export * from './run-validity';
export * from './sequential-design';
export * from './decide-sequential';
export * from './next-sequential-step';
export {
  obrienFlemingSpent,
  spendingBoundaries,
  type SpendingBoundary,
} from './spending-boundaries';
export * from './advisor';
export * from './change-points';
