import type { RunStatus } from '@poolbench/scenarios';

const COLORS: Partial<Record<RunStatus, string>> = {
  succeeded: 'bg-emerald-500',
  failed: 'bg-red-500',
  timed_out: 'bg-red-400',
  aborted_system: 'bg-red-300',
  canceled: 'bg-amber-400',
  running: 'bg-sky-500',
  preparing: 'bg-violet-400',
};

export function ProgressBar({ byStatus, total }: { byStatus: Partial<Record<RunStatus, number>>; total: number }) {
  const order: RunStatus[] = ['succeeded', 'failed', 'timed_out', 'aborted_system', 'canceled', 'running', 'preparing'];
  const done = (byStatus.succeeded ?? 0) + (byStatus.failed ?? 0) + (byStatus.canceled ?? 0) + (byStatus.timed_out ?? 0) + (byStatus.aborted_system ?? 0);
  return (
    <div className="flex min-w-32 items-center gap-2">
      <div className="flex h-2 flex-1 overflow-hidden rounded-full bg-slate-200" role="progressbar" aria-valuemin={0} aria-valuemax={total} aria-valuenow={done} aria-label={`${done} of ${total} runs finished`}>
        {order.map((s) => (byStatus[s] ? <div key={s} className={COLORS[s]} style={{ width: `${((byStatus[s] ?? 0) / Math.max(1, total)) * 100}%` }} /> : null))}
      </div>
      <span className="text-xs tabular-nums text-slate-500">
        {done}/{total}
      </span>
    </div>
  );
}
