import { z } from 'zod';

/** Response schemas of the onboarding procedures: the client's types come from here. */
export const OnboardingSchema = z.object({
  /** the team's first managed target, with what serves it ("Java + HikariCP on Postgres") */
  labTarget: z
    .object({
      id: z.string(),
      name: z.string(),
      runtime: z.string(),
      database: z.string(),
      stack: z.string(),
    })
    .nullable(),
  presets: z.object({
    applied: z.number().int(),
    /** the seed presets the target's runtime and database can run */
    total: z.number().int(),
    notForTarget: z.number().int(),
    scenarioIds: z.array(z.string()),
  }),
  firstExperiment: z.object({ id: z.string(), name: z.string() }).nullable(),
  done: z.boolean(),
});
export type Onboarding = z.infer<typeof OnboardingSchema>;

export const PresetsAddedSchema = z.object({ added: z.number().int() });
