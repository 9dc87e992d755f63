import { Card, CardBody, CardHeader } from '~/components/ui/card';

interface SequentialView {
  maxRepeats: number;
  metrics: string[];
  state: {
    pairs: number;
    stop: boolean;
    /** the next round was refused (the team's script policy or fleet limits) */
    stoppedBecause?: string;
    /** the next round waits for a limit that lifts by itself */
    waitingBecause?: string;
    metrics: Array<{
      name: string;
      decision: string;
      reason: string;
      change?: { estimate: number; lower: number; upper: number } | null;
      changeUnit?: string;
    }>;
  } | null;
}

const LABEL: Record<string, string> = {
  better: 'better',
  worse: 'worse',
  'no-difference-within-floor': 'no difference (within the floor)',
  'short-of-claim': 'short of the claim',
  continue: 'not decided yet',
  'undecided-budget-reached': 'undecided: budget reached',
};

/**
 * An "until decided" experiment: after each pair (round) the sequential rule (alpha spent over the
 * looks, docs/metrics.md "Sequential decisions") decides the second config against the first per
 * metric, or, when the experiment has hypotheses, each hypothesis.
 */
export function SequentialCard({
  sequential,
  configs,
  byHypotheses = false,
}: {
  sequential: SequentialView;
  configs: string[];
  /** the rule decides the experiment's hypotheses (one entry each), not two configs' metrics */
  byHypotheses?: boolean;
}) {
  const s = sequential.state;
  return (
    <Card className="mb-6" data-testid="sequential-card">
      <CardHeader
        title={`Until decided, at most ${sequential.maxRepeats} repeats per side`}
        description={
          byHypotheses
            ? 'After each round of runs the sequential rule decides each hypothesis (its band is the floor, each at its own 5 % level) or one more round runs, until every hypothesis is decided or the budget is spent. Looking after every round is part of the rule, so it does not inflate false positives.'
            : `${configs[1] ?? 'the second config'} against ${configs[0] ?? 'the first'}: after each pair of runs the sequential rule decides each metric or one more pair runs. Looking after every pair is part of the rule, so it does not inflate false positives.`
        }
      />
      <CardBody>
        {!s ? (
          <p className="text-sm text-slate-500">
            The first look comes when the first runs have ended.
          </p>
        ) : (
          <>
            <p className="mb-2 text-sm text-slate-700">
              {s.stop ? 'Stopped' : 'Running'} after {s.pairs} pair{s.pairs === 1 ? '' : 's'} of{' '}
              {sequential.maxRepeats}.
            </p>
            {!s.stop && s.waitingBecause ? (
              <p className="mb-2 text-sm text-amber-800" data-testid="sequential-waiting-because">
                Waiting for the next round: {s.waitingBecause}. It starts when the limit allows.
              </p>
            ) : null}
            {s.stoppedBecause ? (
              <p className="mb-2 text-sm text-amber-800" data-testid="sequential-stopped-because">
                Stopped before a decision: {s.stoppedBecause}.
              </p>
            ) : null}
            <ul className="space-y-1 text-sm">
              {s.metrics.map((m) => (
                <li key={m.name}>
                  <span className="font-medium">{m.name}</span>: {LABEL[m.decision] ?? m.decision}
                  {m.change
                    ? ` (${m.change.estimate.toFixed(1)} ${m.changeUnit === 'percent' ? '%' : (m.changeUnit ?? '')} [${m.change.lower.toFixed(1)}, ${m.change.upper.toFixed(1)}])`
                    : ''}
                  <span className="block text-xs text-slate-500">{m.reason}</span>
                </li>
              ))}
            </ul>
          </>
        )}
      </CardBody>
    </Card>
  );
}
