import Link from 'next/link';
import { Badge, type BadgeTone } from '~/components/ui/badge';
import { Table, Td } from '~/components/ui/table';
import { verdictChangeText, verdictPText, type HypothesisVerdict } from '@poolbench/scenarios';

const VERDICT_TONE: Record<string, BadgeTone> = {
  holds: 'green',
  does_not_hold: 'red',
  unresolved: 'amber',
  pending: 'neutral',
};
const VERDICT_LABEL: Record<string, string> = {
  holds: 'holds',
  does_not_hold: 'does not hold',
  unresolved: 'unresolved',
  pending: 'pending',
};

interface Claim {
  claim: string;
  statement: string;
}
type Result = HypothesisVerdict & { comparePath: string };

/** The seed's claims in its own words (with its numbers), each beside the product's latest verdict. */
export function ClaimVerdicts({ claims, results }: { claims: Claim[]; results: Result[] | null }) {
  return (
    <Table head={["Claim (the seed's numbers)", 'Verdict', 'Change (interval)', 'p', 'Comparison']}>
      {claims.map((c, i) => {
        const r = results?.[i] ?? null;
        return (
          <tr key={i} className="align-top" data-testid="seed-claim">
            <Td className="whitespace-normal">
              <div className="text-slate-900">{c.claim}</div>
              <div className="mt-0.5 text-xs text-slate-500">{c.statement}</div>
              {r?.reason ? (
                <div className="mt-0.5 text-xs text-slate-500">Why: {r.reason}</div>
              ) : null}
            </Td>
            <Td>
              {r ? (
                <Badge tone={VERDICT_TONE[r.status] ?? 'neutral'}>
                  {VERDICT_LABEL[r.status] ?? r.status}
                </Badge>
              ) : (
                <span className="text-xs text-slate-500">—</span>
              )}
            </Td>
            <Td className="tabular-nums">{r ? verdictChangeText(r, '—') : '—'}</Td>
            <Td className="tabular-nums">{verdictPText(r?.p, '—')}</Td>
            <Td>
              {r ? (
                <Link className="text-brand-700 hover:underline" href={r.comparePath}>
                  compare
                </Link>
              ) : null}
            </Td>
          </tr>
        );
      })}
    </Table>
  );
}
