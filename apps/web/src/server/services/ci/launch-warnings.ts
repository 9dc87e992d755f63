import type { Db } from '@poolbench/db';
import { onlineWorkers } from '@poolbench/runs';

/** What a launch answer warns about: things that keep its runs from starting, and what to do. */
export interface LaunchWarning {
  code: 'no_worker_online';
  message: string;
}

export const NO_WORKER_ONLINE: LaunchWarning = {
  code: 'no_worker_online',
  message:
    'no worker is online: the runs wait as queued until one is. On the machine of this installation `make up` starts the web app and a worker (`scripts/stack.sh start worker` only the worker); with Docker Compose or Helm, start the worker service (docs/deploy.md)',
};

/** The warnings of a launch made now: none while some worker has a recent heartbeat. */
export async function launchWarnings(db: Db): Promise<LaunchWarning[]> {
  return (await onlineWorkers(db)) === 0 ? [NO_WORKER_ONLINE] : [];
}
