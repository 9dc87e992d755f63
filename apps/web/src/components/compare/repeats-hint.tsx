'use client';

import { AddRepeatsButton } from '~/components/experiments/add-repeats-button';
import type { ExtendOffer } from './repeats-offers';

const HOW =
  'Bootstrap estimate: 200 experiments simulated per count by resampling the per-run values seen so far, the smallest count at which 80 % of them reach a verdict. It treats the runs seen as the truth, so with few runs it is a rough guide.';

/**
 * Under an Inconclusive verdict: how many repeats per side would likely resolve it (null: not
 * even 50, the most an experiment may repeat), and "Add repeats" for the experiments that can take them.
 */
export function RepeatsHint({
  perSide,
  offers,
}: {
  perSide: number | null;
  offers: ExtendOffer[];
}) {
  return (
    <div
      className="ml-auto mt-1 max-w-56 whitespace-normal text-xs text-amber-800"
      data-testid="repeats-needed"
      title={HOW}
    >
      {perSide !== null ? (
        <p>≈ {perSide} repeats per side would likely resolve this</p>
      ) : (
        <p>
          more than 50 repeats per side would be needed: the difference sits at the edge of the
          floor
        </p>
      )}
      {perSide !== null && offers.length > 0 ? (
        <div className="mt-1 flex flex-col items-end gap-1">
          {offers.map((o) => (
            <AddRepeatsButton
              key={o.experimentId}
              experimentId={o.experimentId}
              experimentName={o.experimentName}
              addRepeats={o.addRepeats}
            />
          ))}
        </div>
      ) : null}
    </div>
  );
}

/** While the estimate is computed: nothing to read yet, said only to screen readers. */
export function RepeatsHintPending() {
  return (
    <div className="mt-1 h-4 text-xs text-slate-300" aria-busy>
      <span aria-hidden>…</span>
      <span className="sr-only">estimating the repeats that would resolve this</span>
    </div>
  );
}
