import { AlertOctagon, AlertTriangle, Info } from 'lucide-react';
import { Card, CardBody, CardHeader } from '~/components/ui/card';

export interface RunInsightView {
  code: string;
  severity: 'critical' | 'warning' | 'info';
  message: string;
  fix: string;
}

const ICON = { critical: AlertOctagon, warning: AlertTriangle, info: Info } as const;
const TONE = {
  critical: 'text-red-700',
  warning: 'text-amber-700',
  info: 'text-sky-700',
} as const;

/**
 * What makes this run's numbers suspect, or shows it did not test what it meant to, each with a
 * fix (docs/insights.md). Nothing is shown for a run with none.
 */
export function RunInsightsCard({ insights }: { insights: RunInsightView[] }) {
  if (insights.length === 0) return null;
  return (
    <Card className="mb-6" data-testid="run-insights">
      <CardHeader
        title="Insights"
        description="Read the numbers above with these in mind; each comes from data this run stored."
      />
      <CardBody>
        <ul className="space-y-3">
          {insights.map((i) => {
            const Icon = ICON[i.severity];
            return (
              <li key={i.code} className="flex gap-3 text-sm" data-code={i.code}>
                <Icon className={`mt-0.5 size-4 shrink-0 ${TONE[i.severity]}`} aria-hidden />
                <div>
                  <p className="text-slate-900">
                    <span className={`mr-1 font-medium ${TONE[i.severity]}`}>{i.severity}:</span>
                    {i.message}
                  </p>
                  <p className="text-slate-600">Fix: {i.fix}</p>
                </div>
              </li>
            );
          })}
        </ul>
      </CardBody>
    </Card>
  );
}
