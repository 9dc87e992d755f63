import Link from 'next/link';
import { Badge, type BadgeTone } from '~/components/ui/badge';
import { Table, Td, Th } from '~/components/ui/table';

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
interface Result {
  status: string;
  change: number | null;
  low: number | null;
  high: number | null;
  changeUnit: string | null;
  p: number | null;
  reason: string | null;
  comparePath: string;
}

const n = (x: number, d: number) =>
  x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
const signed = (x: number, d: number) => `${x > 0 ? '+' : x < 0 ? '−' : '±'}${n(Math.abs(x), d)}`;

function change(r: Result): string {
  if (r.change === null) return '—';
  const pct = r.changeUnit === 'percent';
  const d = pct ? 0 : 2;
  const u = pct ? ' %' : '';
  return `${signed(r.change, d)}${u}${r.low !== null && r.high !== null ? ` (${signed(r.low, d)} … ${signed(r.high, d)}${u})` : ''}`;
}

/** The seed's claims in its own words (with its numbers), each beside the product's latest verdict. */
export function ClaimVerdicts({ claims, results }: { claims: Claim[]; results: Result[] | null }) {
  return (
    <Table>
      <thead>
        <tr>
          <Th>Claim (the seed&apos;s numbers)</Th>
          <Th>Verdict</Th>
          <Th>Change (interval)</Th>
          <Th>p</Th>
          <Th>Comparison</Th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
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
                  <span className="text-xs text-slate-400">—</span>
                )}
              </Td>
              <Td className="tabular-nums">{r ? change(r) : '—'}</Td>
              <Td className="tabular-nums">
                {r?.p === null || r?.p === undefined ? '—' : r.p < 0.001 ? '< 0.001' : n(r.p, 3)}
              </Td>
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
      </tbody>
    </Table>
  );
}
