/** A point of the load curve the web UI draws: VUs for closed-model templates, req/s for open ones. */
export interface ProfilePoint {
  tSec: number;
  vus?: number;
  rate?: number;
}

/** What a template contributes to the script; the generator adds requests, thresholds and setup. */
export interface TemplatePlan {
  /** k6 `options.scenarios` */
  scenarios: Record<string, Record<string, unknown>>;
  estimatedDurationMs: number;
  profile: ProfilePoint[];
  /** upper bound of VUs alive at once (each holds its own payload copy) */
  maxVUs: number;
  /** closed model: VUs loop and may pause between requests; open model: k6 starts iterations at a rate */
  closedModel: boolean;
}

export const ms = (n: number): string => `${Math.round(n)}ms`;
export const sec = (n: number): number => Math.round(n) / 1000;

/** The profile of a load held level for its whole length: so many VUs, or so many req/s. */
export const levelProfile = (
  durationMs: number,
  level: { vus: number } | { rate: number },
): ProfilePoint[] => [
  { tSec: 0, ...level },
  { tSec: sec(durationMs), ...level },
];

/** Requests finishing after the last stage still count, up to this long, so the tail is not cut off. */
export const GRACEFUL_STOP = '10s';

export interface VuStage {
  durationMs: number;
  target: number;
}

/** ramping-vus scenario plus its profile from stages. */
export function rampingVus(name: string, startVUs: number, stages: VuStage[]): TemplatePlan {
  const profile = [{ tSec: 0, vus: startVUs }];
  let t = 0;
  for (const s of stages) {
    t += s.durationMs;
    profile.push({ tSec: sec(t), vus: s.target });
  }
  return {
    scenarios: {
      [name]: {
        executor: 'ramping-vus',
        startVUs,
        stages: stages.map((s) => ({ duration: ms(s.durationMs), target: s.target })),
        gracefulRampDown: GRACEFUL_STOP,
        gracefulStop: GRACEFUL_STOP,
      },
    },
    estimatedDurationMs: t,
    profile,
    maxVUs: Math.max(startVUs, ...stages.map((s) => s.target)),
    closedModel: true,
  };
}
