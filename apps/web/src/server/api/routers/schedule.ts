import { z } from 'zod';
import { ByIdSchema } from '~/lib/schemas/ids';
import { previewCron } from '~/lib/schemas/cron';
import { protectedProcedure, teamProcedure } from '../trpc';
import {
  CronPreviewSchema,
  ScheduleBaselineCellsSchema,
  ScheduleDoneSchema,
  ScheduleListSchema,
  ScheduleRunNowSchema,
} from './schedule.types';
import {
  deleteSchedule,
  listSchedules,
  runScheduleNow,
  setScheduleNotify,
  setSchedulePaused,
  updateSchedule,
} from '~/server/services/schedules/schedules';
import { ScheduleNotifySchema } from '~/lib/schemas/schedule-notify';
import { scheduleBaselineCells } from '~/server/services/schedules/schedule-baseline-cells';
import { IdSchema } from '~/lib/schemas/ids';
import { ScheduleUpdateSchema } from '~/lib/schemas/experiment';
import { verifiedTeamProcedure } from '../verified';

export const scheduleRouter = {
  list: teamProcedure('viewer')
    .output(ScheduleListSchema)
    .query(({ ctx }) => listSchedules(ctx.db, ctx.team.id)),
  /** which baseline each cell of a firing would be compared with, for the Notify dialog */
  baselineCells: teamProcedure('viewer')
    .input(z.object({ id: IdSchema, baselineName: z.string().trim().max(40) }))
    .output(ScheduleBaselineCellsSchema)
    .query(({ ctx, input }) =>
      scheduleBaselineCells(ctx.db, ctx.team.id, input.id, input.baselineName),
    ),
  preview: protectedProcedure
    .input(z.object({ cron: z.string().max(120), timezone: z.string().max(64).default('UTC') }))
    .output(CronPreviewSchema)
    .query(({ input }) => previewCron(input.cron, input.timezone)),
  pause: teamProcedure('member')
    .input(ByIdSchema)
    .output(ScheduleDoneSchema)
    .mutation(({ ctx, input }) => setSchedulePaused(ctx.db, ctx.team.id, input.id, true)),
  resume: verifiedTeamProcedure('member')
    .input(ByIdSchema)
    .output(ScheduleDoneSchema)
    .mutation(({ ctx, input }) => setSchedulePaused(ctx.db, ctx.team.id, input.id, false)),
  update: verifiedTeamProcedure('member')
    .input(ScheduleUpdateSchema.extend({ id: IdSchema }))
    .output(ScheduleDoneSchema)
    .mutation(({ ctx, input }) => updateSchedule(ctx.db, ctx.team.id, input)),
  setNotify: teamProcedure('member')
    .input(ScheduleNotifySchema.extend({ id: IdSchema }))
    .output(ScheduleDoneSchema)
    .mutation(({ ctx, input }) => setScheduleNotify(ctx.db, ctx.secretKey, ctx.team.id, input)),
  runNow: verifiedTeamProcedure('member')
    .input(ByIdSchema)
    .output(ScheduleRunNowSchema)
    .mutation(({ ctx, input }) =>
      runScheduleNow({ db: ctx.db, queue: ctx.runQueue() }, ctx.team.id, input.id),
    ),
  delete: teamProcedure('member')
    .input(ByIdSchema)
    .output(ScheduleDoneSchema)
    .mutation(({ ctx, input }) => deleteSchedule(ctx.db, ctx.team.id, input.id)),
};
