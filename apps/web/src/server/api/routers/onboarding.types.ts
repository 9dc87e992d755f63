import { z } from 'zod';

/** Response schemas of the onboarding procedures: the client's types come from here. */
export const OnboardingSchema = z.object({
  labTarget: z.object({ id: z.string(), name: z.string() }).nullable(),
  presets: z.object({
    applied: z.number().int(),
    total: z.number().int(),
    scenarioIds: z.array(z.string()),
  }),
  firstExperiment: z.object({ id: z.string(), name: z.string() }).nullable(),
  done: z.boolean(),
});
export type Onboarding = z.infer<typeof OnboardingSchema>;

export const PresetsAddedSchema = z.object({ added: z.number().int() });
