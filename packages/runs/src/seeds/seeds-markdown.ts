import type { SeedReproduction } from './seed-results';
import { verdictChangeText, verdictPText } from '@poolbench/scenarios';

export const SEEDS_RESULTS_START = '<!-- seeds:results:start -->';
export const SEEDS_RESULTS_END = '<!-- seeds:results:end -->';

const VERDICT: Record<string, string> = {
  holds: '**holds**',
  does_not_hold: '**does not hold**',
  unresolved: '**unresolved**',
  pending: 'pending (not decided)',
};

function num(x: number, digits: number): string {
  return x.toLocaleString('en-US', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}
const esc = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The results section of docs/seeds.md, from the product's stored decisions. */
export function seedsMarkdown(
  r: SeedReproduction,
  meta: { command: string; machine: string; elapsedS: number; load: string; baseUrl?: string },
): string {
  const lines: string[] = [];
  const counts = { holds: 0, does_not_hold: 0, unresolved: 0, pending: 0 };
  for (const e of r.experiments) for (const c of e.claims) counts[c.status]++;
  const others = new Map<string, Set<string>>();
  for (const e of r.experiments)
    if (e.reproductionId !== r.reproductionId)
      others.set(e.reproductionId, (others.get(e.reproductionId) ?? new Set()).add(e.seed));
  lines.push(
    others.size
      ? `## Latest results per seed: ${r.reproductionId} and earlier`
      : `## Latest reproduction: ${r.reproductionId}`,
  );
  lines.push('');
  lines.push(
    `Command: \`${meta.command}\`, ${num(meta.elapsedS / 60, 1)} min. Machine: ${meta.machine}. 1-minute load average at start / end: ${meta.load} (the machine is shared; spreads include other work).`,
  );
  if (others.size) {
    const here = new Set(
      r.experiments.filter((e) => e.reproductionId === r.reproductionId).map((e) => e.seed),
    );
    const earlier = [...others].map(([id, seeds]) => `seed ${[...seeds].join(', ')} from ${id}`);
    lines.push(
      `Reproduction ${r.reproductionId} ran seed ${[...here].join(', ')}; the other rows are each preset's latest earlier reproduction that decided every claim: ${earlier.join('; ')} (the experiment column names it).`,
    );
  }
  const all = r.experiments.flatMap((e) => e.claims);
  const fromRuns = all.filter((c) => c.decidedBy === 'runs').length;
  const how =
    fromRuns === 0
      ? "Verdicts are the product's: each hypothesis was stored with its experiment before the first run and decided by `@poolbench/stats` when the experiment ended (docs/hypotheses.md)."
      : `${fromRuns === all.length ? 'No' : 'Some'} hypotheses were stored with these experiments (the build that launched them could not store them yet): the preset's claims, fixed in code before the runs, were decided from the stored runs with the same rule (\`decideHypothesis\` in \`@poolbench/stats\`); each such row says so.`;
  lines.push(
    `${how} Totals: ${counts.holds} hold, ${counts.does_not_hold} do not hold, ${counts.unresolved} unresolved${counts.pending ? `, ${counts.pending} not decided` : ''}.`,
  );
  lines.push('');
  lines.push(
    "| seed | experiment | claim (seed's numbers) | product verdict | change (interval) | p | runs | disturbance | insights | why | compare |",
  );
  lines.push('|---|---|---|---|---|---|---|---|---|---|---|');
  const experimentCell = (e: SeedReproduction['experiments'][number]) =>
    `\`${e.experimentId}\` (${e.status}${e.reproductionId === r.reproductionId ? '' : `, ${e.reproductionId}`})`;
  for (const e of r.experiments) {
    if (e.claims.length === 0)
      lines.push(`| ${e.seed} | ${experimentCell(e)} | — | no hypotheses stored | | | | | | | |`);
    for (const c of e.claims) {
      const link = `${meta.baseUrl ?? ''}${c.comparePath}`;
      lines.push(
        `| ${e.seed} | ${experimentCell(e)} | ${esc(c.claim ?? c.statement)} | ${VERDICT[c.status]} | ${verdictChangeText(c)} | ${verdictPText(c.p)} | ${c.runsUsed} | ${c.disturbancePercent === null ? '—' : `${num(c.disturbancePercent, 0)} %`} | ${c.insights.length ? c.insights.map((i) => `${i.code} ×${i.runs}`).join(', ') : '—'} | ${esc(c.reason ?? '')} | [compare](${link}) |`,
      );
    }
  }
  lines.push('');
  lines.push('Formal statements (what was tested, generated from the fields):');
  lines.push('');
  for (const e of r.experiments)
    for (const c of e.claims) lines.push(`- ${e.seed}: ${esc(c.statement)}`);
  return lines.join('\n');
}

/** Replaces the results block of docs/seeds.md (or appends it), leaving the hand-written part alone. */
export function replaceSeedsResults(doc: string, section: string): string {
  const block = `${SEEDS_RESULTS_START}\n${section.trim()}\n${SEEDS_RESULTS_END}`;
  const i = doc.indexOf(SEEDS_RESULTS_START);
  const j = doc.indexOf(SEEDS_RESULTS_END);
  return i >= 0 && j > i
    ? doc.slice(0, i) + block + doc.slice(j + SEEDS_RESULTS_END.length)
    : `${doc.trimEnd()}\n\n${block}\n`;
}
