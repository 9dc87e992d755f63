'use client';

import { useSearchParams } from 'next/navigation';
import { PageHeader } from '~/components/ui/page-header';
import { itemsFromParam } from '~/lib/compare/selection';
import { ComparePicker } from './compare-picker';
import { CompareView } from './compare-view';
import { windowFromParams } from './window-picker';

/** /compare?items=…[&baseline=i][&from=s&to=s][&floor=default]: the picker until 2–6 items are chosen, then the comparison. */
export function ComparePage() {
  const params = useSearchParams();
  const items = itemsFromParam(params.get('items')).slice(0, 6);
  const b = params.get('baseline');
  const baseline = b !== null && /^\d$/.test(b) && Number(b) < items.length ? Number(b) : null;
  if (items.length < 2 || params.get('edit')) {
    return (
      <>
        <PageHeader
          title="Compare"
          description="Pick 2–6 pool configs (experiment cells with all their repeats) or single runs. PoolBench says which is faster, by how much, and whether the difference is real."
        />
        <ComparePicker initial={items} />
      </>
    );
  }
  return (
    <CompareView
      key={params.toString()}
      items={items}
      baseline={baseline}
      window={windowFromParams(params)}
      noiseFloor={params.get('floor') === 'default' ? 'default' : 'calibrated'}
    />
  );
}
