import { z } from 'zod';
import { ScaleSchema, ScriptScenarioSchema } from '@poolbench/scenarios';
import { INSIGHT_CODES } from '@poolbench/stats';
import { ScenarioSaveSchema } from '~/lib/schemas/scenario';
import { ByIdSchema, IdSchema } from '~/lib/schemas/ids';
import { teamProcedure } from '../trpc';
import {
  PresetAppliedSchema,
  PresetCardsSchema,
  ScenarioArchivedSchema,
  ScenarioListSchema,
  ScenarioViewSchema,
  ScriptInspectionSchema,
} from './scenario.types';
import {
  addInsightThreshold,
  archiveScenario,
  createScenario,
  getScenario,
  listScenarios,
  updateScenario,
} from '~/server/services/scenarios/scenarios';
import { applyPreset } from '~/server/services/scenarios/apply-preset';
import { inspectScript, saveScriptScenario } from '~/server/services/scenarios/script-scenarios';
import { listPresetCards } from '~/server/services/scenarios/list-presets-view';
import { verifiedTeamProcedure } from '../verified';

export const scenarioRouter = {
  list: teamProcedure('viewer')
    .output(ScenarioListSchema)
    .query(({ ctx }) => listScenarios(ctx.db, ctx.team.id)),
  get: teamProcedure('viewer')
    .input(ByIdSchema)
    .output(ScenarioViewSchema)
    .query(({ ctx, input }) => getScenario(ctx.db, ctx.team.id, input.id)),
  create: teamProcedure('member')
    .input(ScenarioSaveSchema)
    .output(ScenarioViewSchema)
    .mutation(({ ctx, input }) => createScenario(ctx.db, ctx.team.id, input)),
  update: teamProcedure('member')
    .input(ScenarioSaveSchema.extend({ id: IdSchema }))
    .output(ScenarioViewSchema)
    .mutation(({ ctx, input }) => updateScenario(ctx.db, ctx.team.id, input)),
  /** a team's own k6 script, checked in the sandbox without saving: k6's options or its error */
  inspectScript: verifiedTeamProcedure('member')
    .input(ScriptScenarioSchema.pick({ source: true, files: true }))
    .output(ScriptInspectionSchema)
    .mutation(({ ctx, input }) => inspectScript(ctx.db, ctx.team.id, input)),
  /** saves a team's own k6 script as a scenario (over `id` when given) once the sandbox checked it */
  saveScript: verifiedTeamProcedure('member')
    .input(
      z.object({
        id: IdSchema.optional(),
        name: z.string().trim().min(1, 'is required').max(120, 'must be at most 120 characters'),
        script: ScriptScenarioSchema.omit({ inspected: true }),
      }),
    )
    .output(ScenarioViewSchema)
    .mutation(({ ctx, input }) => saveScriptScenario(ctx.db, ctx.team.id, input)),
  /** a run insight as a threshold of the scenario ("insight:<code>" is "absent") */
  addInsightThreshold: teamProcedure('member')
    .input(z.object({ id: IdSchema, code: z.enum(INSIGHT_CODES) }))
    .output(ScenarioViewSchema)
    .mutation(({ ctx, input }) => addInsightThreshold(ctx.db, ctx.team.id, input)),
  archive: teamProcedure('member')
    .input(ByIdSchema)
    .output(ScenarioArchivedSchema)
    .mutation(({ ctx, input }) => archiveScenario(ctx.db, ctx.team.id, input.id)),
  presets: teamProcedure('viewer')
    .output(PresetCardsSchema)
    .query(() => listPresetCards()),
  applyPreset: teamProcedure('member')
    .input(
      z.object({
        presetId: z.string().min(1).max(120),
        scale: ScaleSchema,
        targetId: IdSchema,
        createPoolConfigs: z.boolean().default(true),
      }),
    )
    .output(PresetAppliedSchema)
    .mutation(({ ctx, input }) => applyPreset(ctx.db, ctx.team.id, input)),
};
