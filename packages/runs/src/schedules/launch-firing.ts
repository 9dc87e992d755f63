import type { Db } from '@poolbench/db';
import type { Queue } from 'bullmq';
import { relaunchAndEnqueue, type QueuedLaunch } from '../launch-and-enqueue';

/**
 * One firing of a schedule: its saved experiment cloned under the schedule (so it is compared
 * and notified when it ends) and enqueued, named after the schedule and the minute it fired. The
 * cron firing (worker) and "Run now" (web) both start it here.
 */
export function launchFiring(
  deps: { db: Db; queue: Queue },
  schedule: { id: string; teamId: string; name: string; sourceExperimentId: string },
  opts: { manual?: boolean; at?: Date } = {},
): Promise<QueuedLaunch> {
  const minute = (opts.at ?? new Date()).toISOString().slice(0, 16).replace('T', ' ');
  return relaunchAndEnqueue(deps, schedule.sourceExperimentId, {
    teamId: schedule.teamId,
    scheduleId: schedule.id,
    name: `${schedule.name} · ${minute} UTC${opts.manual ? ' (run now)' : ''}`,
  });
}
