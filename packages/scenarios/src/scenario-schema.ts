import { z } from 'zod';
import { LIMITS } from './limits';
import { bodyMemoryBytes } from './payload-memory';

const mib = (b: number) => Math.ceil(b / 2 ** 20);
import { RequestMixSchema } from './request-spec';
import { DataSchema } from './flow-schema';
import { flowProblems } from './flow-problems';
import { ThresholdListSchema } from './thresholds/threshold-schema';
import { TEMPLATE_PARAMS, planScenario } from './templates/registry';

const readyPath = z
  .string()
  .max(256)
  .regex(/^\/[A-Za-z0-9\-._~/]*$/, 'must be a plain path starting with /')
  .default('/')
  .describe(
    'setup() requests this on the first base URL and fails the run fast if nothing answers',
  );

const common = {
  requests: RequestMixSchema,
  thresholds: ThresholdListSchema,
  readyPath,
  /**
   * A flow: every iteration sends all requests in order (steps), each able to use what earlier
   * steps extracted; without it an iteration sends one request picked by weight.
   */
  flow: z.boolean().optional(),
  data: DataSchema.optional(),
};

/** A scenario: template + its params, the request mix, thresholds. Discriminated on `template`. */
export const ScenarioSchema = z
  .discriminatedUnion('template', [
    z.strictObject({
      template: z.literal('cold-start-burst'),
      params: TEMPLATE_PARAMS['cold-start-burst'],
      ...common,
    }),
    z.strictObject({
      template: z.literal('ramp-up'),
      params: TEMPLATE_PARAMS['ramp-up'],
      ...common,
    }),
    z.strictObject({ template: z.literal('spike'), params: TEMPLATE_PARAMS.spike, ...common }),
    z.strictObject({
      template: z.literal('sustained'),
      params: TEMPLATE_PARAMS.sustained,
      ...common,
    }),
    z.strictObject({
      template: z.literal('constant-arrival-rate'),
      params: TEMPLATE_PARAMS['constant-arrival-rate'],
      ...common,
    }),
    z.strictObject({
      template: z.literal('fixed-requests'),
      params: TEMPLATE_PARAMS['fixed-requests'],
      ...common,
    }),
    z.strictObject({
      template: z.literal('arrival-rate-sweep'),
      params: TEMPLATE_PARAMS['arrival-rate-sweep'],
      ...common,
    }),
  ])
  .superRefine((s, ctx) => {
    for (const p of flowProblems(s))
      ctx.addIssue({ code: 'custom', path: p.path, message: p.message });
  })
  .superRefine((s, ctx) => {
    // Every VU builds its own copy of each payload in the init context; JSON bodies count with
    // what they cost as parsed JSON in k6, not only their size on the wire (payload-memory.ts).
    const perVu = s.requests.map((r) => bodyMemoryBytes(r.body));
    const payloadBytes = perVu.reduce((sum, b) => sum + b, 0);
    if (payloadBytes === 0) return;
    const { maxVUs } = planScenario(s);
    if (payloadBytes * maxVUs > LIMITS.maxPayloadMemoryBytes) {
      const worst = perVu.indexOf(Math.max(...perVu));
      const json = s.requests[worst]!.body.kind === 'json';
      ctx.addIssue({
        code: 'custom',
        path: ['requests'],
        message: `request bodies need about ${mib(payloadBytes)} MiB per VU in k6${json ? ` (requests.${worst}.body.value is JSON: about twice its size plus 180 bytes per JSON value)` : ''}, x ${maxVUs} VUs = ${mib(payloadBytes * maxVUs)} MiB; the limit is ${LIMITS.maxPayloadMemoryBytes / 2 ** 20} MiB: use fewer VUs or smaller payloads`,
      });
    }
  });

export type Scenario = z.infer<typeof ScenarioSchema>;
export type ScenarioInput = z.input<typeof ScenarioSchema>;
