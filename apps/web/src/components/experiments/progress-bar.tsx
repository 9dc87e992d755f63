import { TERMINAL_RUN_STATUSES, type RunStatus } from '@poolbench/contracts';

const COLORS: Partial<Record<RunStatus, string>> = {
  succeeded: 'bg-emerald-500',
  thresholds_failed: 'bg-rose-600',
  failed: 'bg-red-500',
  timed_out: 'bg-red-400',
  aborted_system: 'bg-red-300',
  canceled: 'bg-amber-400',
  running: 'bg-sky-500',
  preparing: 'bg-violet-400',
};

export function ProgressBar({
  byStatus,
  total,
}: {
  byStatus: Partial<Record<RunStatus, number>>;
  total: number;
}) {
  const order: RunStatus[] = [
    'succeeded',
    'thresholds_failed',
    'failed',
    'timed_out',
    'aborted_system',
    'canceled',
    'running',
    'preparing',
  ];
  const done = TERMINAL_RUN_STATUSES.reduce((a, s) => a + (byStatus[s] ?? 0), 0);
  return (
    <div className="flex min-w-32 items-center gap-2">
      <div
        className="flex h-2 flex-1 overflow-hidden rounded-full bg-slate-200"
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
        aria-label={`${done} of ${total} runs finished`}
      >
        {order.map((s) =>
          byStatus[s] ? (
            <div
              key={s}
              className={COLORS[s]}
              style={{ width: `${((byStatus[s] ?? 0) / Math.max(1, total)) * 100}%` }}
            />
          ) : null,
        )}
      </div>
      <span className="text-xs tabular-nums text-slate-500">
        {done}/{total}
      </span>
    </div>
  );
}
