/**
 * Hard limits for generated load. They keep one run from exhausting a worker (VUs and payloads
 * are held in k6's memory) and bound every run in time, as the house rules require.
 */
export const LIMITS = {
  maxVUs: 2000,
  maxDurationMs: 2 * 60 * 60 * 1000,
  maxRatePerSec: 50_000,
  maxPayloadBytes: 16 * 1024 * 1024,
  /** payload bytes x VUs that may hold them: each VU builds its own copy in the init context */
  maxPayloadMemoryBytes: 2 * 1024 * 1024 * 1024,
  /** a JSON request body, serialized (UTF-8); see payload-memory.ts for what it costs per VU */
  maxJsonBodyBytes: 1024 * 1024,
  maxRequests: 10_000_000,
  maxRequestTimeoutMs: 10 * 60 * 1000,
  maxStages: 50,
  maxSpikes: 20,
  maxSweepSteps: 50,
  maxRequestsInMix: 16,
  maxThinkTimeMs: 60_000,
  /** flows: values a request takes from its response, and checks on it */
  maxExtractsPerRequest: 8,
  maxChecksPerRequest: 8,
  /**
   * a scenario's data file (CSV or JSON), held once per run in k6 (SharedArray); half the API's
   * 1 MiB request body limit, so the scenario around it still fits
   */
  maxDataBytes: 512 * 1024,
  maxDataRows: 10_000,
  maxDataColumns: 32,
  /** a team's own k6 script, and the files it opens */
  maxScriptBytes: 256 * 1024,
  maxScriptFiles: 8,
  /** with the script, within the API's 1 MiB request body limit */
  maxScriptFilesBytes: 512 * 1024,
} as const;
