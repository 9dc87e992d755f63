import type { z } from 'zod';
import { ColdStartBurstParamsSchema, planColdStartBurst } from './cold-start-burst';
import { RampUpParamsSchema, planRampUp } from './ramp-up';
import { SpikeParamsSchema, planSpike } from './spike';
import { SustainedParamsSchema, planSustained } from './sustained';
import { ConstantArrivalRateParamsSchema, planConstantArrivalRate } from './constant-arrival-rate';
import { FixedRequestsParamsSchema, planFixedRequests } from './fixed-requests';
import { ArrivalRateSweepParamsSchema, planArrivalRateSweep } from './arrival-rate-sweep';
import type { TemplatePlan } from './template-plan';

export const TEMPLATE_IDS = [
  'cold-start-burst',
  'ramp-up',
  'spike',
  'sustained',
  'constant-arrival-rate',
  'fixed-requests',
  'arrival-rate-sweep',
] as const;
export type TemplateId = (typeof TEMPLATE_IDS)[number];

export interface TemplateInfo {
  id: TemplateId;
  label: string;
  model: 'closed' | 'open';
  description: string;
}

/** Labels and descriptions for the UI's template picker. */
export const TEMPLATES: Record<TemplateId, TemplateInfo> = {
  'cold-start-burst': {
    id: 'cold-start-burst',
    label: 'Cold-start burst',
    model: 'closed',
    description:
      '0 to N VUs almost at once against a freshly started target, then hold (seed 000 TC1).',
  },
  'ramp-up': {
    id: 'ramp-up',
    label: 'Ramp-up',
    model: 'closed',
    description: 'VUs follow linear stages (seed 000 TC2, seed 001).',
  },
  spike: {
    id: 'spike',
    label: 'Spike',
    model: 'closed',
    description:
      'Baseline VUs with k spikes of a given height and length (seed 000 TC3, seed 003 bursts).',
  },
  sustained: {
    id: 'sustained',
    label: 'Sustained',
    model: 'closed',
    description:
      'Constant VUs for a long time to expose memory creep and CPU drift (seed 000 TC4).',
  },
  'constant-arrival-rate': {
    id: 'constant-arrival-rate',
    label: 'Constant arrival rate',
    model: 'open',
    description: 'Fixed requests per second regardless of latency, like Vegeta (seed 002).',
  },
  'fixed-requests': {
    id: 'fixed-requests',
    label: 'Fixed request count',
    model: 'closed',
    description: 'N requests at concurrency C, like ab -n N -c C (seed 004).',
  },
  'arrival-rate-sweep': {
    id: 'arrival-rate-sweep',
    label: 'Arrival-rate sweep',
    model: 'open',
    description: 'Steps of increasing request rate to find where latency or errors break.',
  },
};

export const TEMPLATE_PARAMS = {
  'cold-start-burst': ColdStartBurstParamsSchema,
  'ramp-up': RampUpParamsSchema,
  spike: SpikeParamsSchema,
  sustained: SustainedParamsSchema,
  'constant-arrival-rate': ConstantArrivalRateParamsSchema,
  'fixed-requests': FixedRequestsParamsSchema,
  'arrival-rate-sweep': ArrivalRateSweepParamsSchema,
} as const satisfies Record<TemplateId, z.ZodType>;

type ParamsOf<T extends TemplateId> = z.infer<(typeof TEMPLATE_PARAMS)[T]>;

const PLANNERS: { [T in TemplateId]: (p: ParamsOf<T>) => TemplatePlan } = {
  'cold-start-burst': planColdStartBurst,
  'ramp-up': planRampUp,
  spike: planSpike,
  sustained: planSustained,
  'constant-arrival-rate': planConstantArrivalRate,
  'fixed-requests': planFixedRequests,
  'arrival-rate-sweep': planArrivalRateSweep,
};

export function planTemplate<T extends TemplateId>(template: T, params: ParamsOf<T>): TemplatePlan {
  return PLANNERS[template](params);
}

/** A template id with its own params: what a parsed scenario is, for planning. */
export type TemplateWithParams = {
  [T in TemplateId]: { template: T; params: ParamsOf<T> };
}[TemplateId];

/** The plan of a parsed scenario: the switch narrows template and params together, no casts. */
export function planScenario(s: TemplateWithParams): TemplatePlan {
  switch (s.template) {
    case 'cold-start-burst':
      return planColdStartBurst(s.params);
    case 'ramp-up':
      return planRampUp(s.params);
    case 'spike':
      return planSpike(s.params);
    case 'sustained':
      return planSustained(s.params);
    case 'constant-arrival-rate':
      return planConstantArrivalRate(s.params);
    case 'fixed-requests':
      return planFixedRequests(s.params);
    case 'arrival-rate-sweep':
      return planArrivalRateSweep(s.params);
  }
}
