import { CalendarClock, RotateCcw } from 'lucide-react';
import Link from 'next/link';
import { buttonClass } from '~/components/ui/button';

/**
 * "Rerun" and "Schedule this": the experiment form filled with this experiment's name, target,
 * pool configs, scenarios and repeats, to start now or on a cron. Hypotheses are stated again in
 * the form (they are claims about one experiment's runs).
 */
export function AgainLinks({
  e,
}: {
  e: {
    name: string;
    repeats: number;
    target: { id: string };
    poolConfigs: Array<{ id: string }>;
    scenarios: Array<{ id: string }>;
  };
}) {
  const query = (when?: 'schedule') =>
    new URLSearchParams({
      name: e.name,
      targetId: e.target.id,
      poolConfigIds: e.poolConfigs.map((p) => p.id).join(','),
      scenarioIds: e.scenarios.map((s) => s.id).join(','),
      repeats: String(e.repeats),
      ...(when ? { when } : {}),
    }).toString();
  return (
    <>
      <Link href={`/experiments/new?${query()}`} className={buttonClass('secondary')}>
        <RotateCcw className="size-4" /> Rerun
      </Link>
      <Link href={`/experiments/new?${query('schedule')}`} className={buttonClass('secondary')}>
        <CalendarClock className="size-4" /> Schedule this
      </Link>
    </>
  );
}
