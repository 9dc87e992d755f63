import { z } from 'zod';
import { CALIBRATION_RUNS_PER_SIDE } from '@poolbench/runs';
import { TESTED_RUN_METRIC_KEYS } from '@poolbench/contracts';
import { IdSchema } from '~/lib/schemas/ids';
import { teamProcedure } from '../trpc';
import { ExperimentLaunchedSchema } from './experiment.types';
import { listCalibrations, startCalibration } from '~/server/services/calibration/calibration';
import { verifiedTeamProcedure } from '../verified';

const { min, max } = CALIBRATION_RUNS_PER_SIDE;

const NoiseFloorViewSchema = z.object({
  experimentId: z.string(),
  scenarioId: z.string(),
  scenarioName: z.string(),
  poolConfigName: z.string(),
  runsPerSide: z.number().int(),
  createdAt: z.date(),
  metrics: z.array(
    z.object({
      key: z.enum(TESTED_RUN_METRIC_KEYS),
      unit: z.enum(['percent', 'absolute']),
      value: z.number(),
      estimate: z.number(),
      n: z.number().int(),
    }),
  ),
});

/** A/A calibration (docs/metrics.md, "Noise floor"): the same config against itself. */
export const calibrationRouter = {
  start: verifiedTeamProcedure('member')
    .input(
      z.object({
        targetId: IdSchema,
        poolConfigId: IdSchema,
        scenarioId: IdSchema,
        runsPerSide: z
          .number({ error: 'must be a number' })
          .int('must be a whole number')
          .min(min, `must be at least ${min} (the least that can show a change at p < 0.05)`)
          .max(max, `must be at most ${max}`)
          .optional(),
      }),
    )
    .output(ExperimentLaunchedSchema)
    .mutation(({ ctx, input }) =>
      startCalibration(
        { db: ctx.db, queue: ctx.runQueue() },
        { teamId: ctx.team.id, userId: ctx.user.id, ...input },
      ),
    ),
  list: teamProcedure('viewer')
    .input(z.object({ targetId: IdSchema }))
    .output(
      z.object({
        floors: z.array(NoiseFloorViewSchema),
        pending: z.array(
          z.object({
            experimentId: z.string(),
            name: z.string(),
            status: z.string(),
            runsPerSide: z.number(),
            createdAt: z.date(),
          }),
        ),
      }),
    )
    .query(({ ctx, input }) => listCalibrations(ctx.db, ctx.team.id, input.targetId)),
};
