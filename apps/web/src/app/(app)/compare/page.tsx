import { Suspense } from 'react';
import { ComparePage } from '~/components/compare/compare-page';
import { LoadingBlock } from '~/components/ui/feedback';

export const metadata = { title: 'Compare · PoolBench' };

export default function Page() {
  return (
    <Suspense fallback={<LoadingBlock rows={6} />}>
      <ComparePage />
    </Suspense>
  );
}
