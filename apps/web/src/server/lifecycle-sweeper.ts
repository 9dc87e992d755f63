import { startLifecycleSweeper } from '@poolbench/runs';
import { db } from './db';
import { env } from './env';
import { runQueue } from './queue';

type Sweeper = ReturnType<typeof startLifecycleSweeper>;
const g = globalThis as unknown as { __poolbenchSweeper?: Sweeper };

const line = (level: 'info' | 'warn') => (obj: object, msg: string) =>
  console[level === 'warn' ? 'warn' : 'log'](
    JSON.stringify({ level, time: Date.now(), component: 'lifecycle-sweeper', msg, ...obj }),
  );

/**
 * The web app sweeps too: a run whose only worker was killed must still end `aborted_system`
 * (worker_lost) with its data, although no worker is alive to notice. Same code as the workers'
 * sweep (@poolbench/runs); every transition is conditional, so several sweepers never conflict.
 */
export function startWebSweeper(): Sweeper | null {
  if (!env.WEB_SWEEPER) return null;
  return (g.__poolbenchSweeper ??= startLifecycleSweeper(
    { db, queue: runQueue(), log: { info: line('info'), warn: line('warn') } },
    { staleAfterMs: env.RUN_STALE_AFTER_MS, intervalMs: env.SWEEP_INTERVAL_MS },
  ));
}
