// Public API of the pool-size advisor: pure, service-free models, verdicts and search.
export {
  cosmetatosFactor,
  ddcMinServers,
  erlangB,
  erlangC,
  mdcMinServers,
  mdcWait,
  mmcWait,
  offeredLoad,
  type DdcSizing,
  type MdcSizing,
  type QueueWait,
} from './queueing';
export {
  fitUsl,
  uslPeakN,
  uslThroughput,
  type UslFit,
  type UslParameters,
  type UslPoint,
  type UslRefusal,
  type UslRefusalReason,
} from './usl';
export {
  LITTLES_LAW_ABSOLUTE_TOLERANCE,
  LITTLES_LAW_RELATIVE_TOLERANCE,
  checkLittlesLaw,
  type LittlesLawCheck,
  type LittlesLawInput,
} from './littles-law';
export {
  SLO_VERDICT_RULE,
  binomialLowerTail,
  binomialUpperTail,
  checkRunAgainstSlo,
  clopperPearsonLower,
  clopperPearsonUpper,
  sloVerdict,
  type AdvisorObjective,
  type AdvisorObservation,
  type MaxThroughputObjective,
  type RunCheck,
  type SettingVerdict,
  type SloObjective,
  type SloVerdict,
} from './slo';
export {
  THROUGHPUT_RULE,
  bestThroughputSetting,
  throughputVerdicts,
  type ThroughputVerdict,
} from './throughput';
export {
  MAX_RUNS_FACTOR,
  coarseSettings,
  planAdvisor,
  type AdvisorEvidence,
  type AdvisorInput,
  type AdvisorPlan,
  type NonMonotoneObservation,
  type SettingEvidence,
} from './advisor-search';
