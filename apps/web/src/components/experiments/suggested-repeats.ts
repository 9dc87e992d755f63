/**
 * The "Add repeats" default: what the unresolved hypotheses' estimates ask for (repeats per side
 * minus the runs each side has), so the box and the "about N repeats" lines agree; 2 when no
 * estimate exists (none of them could be settled within an experiment's limit).
 */
export function suggestedRepeats(
  items: readonly { status: string; repeatsNeeded: number | null; runsUsed: number }[],
): number {
  const asks = items
    .filter((h) => h.status === 'unresolved' && h.repeatsNeeded !== null)
    .map((h) => h.repeatsNeeded! - Math.floor(h.runsUsed / 2));
  if (asks.length === 0) return 2;
  return Math.min(49, Math.max(1, ...asks));
}
