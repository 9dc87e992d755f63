// The stored run summary's types live in @poolbench/contracts (the worker writes them, the
// database parses them); they are re-exported here for the statistics that build and read them.
export type {
  ResourceSummary,
  RunDelivery,
  RunStep,
  RunSubMetric,
  RunSummary,
} from '@poolbench/contracts';
