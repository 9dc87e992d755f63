import { Suspense } from 'react';
import { AdvisorForm } from '~/components/advisor/advisor-form';
import { PageHeader } from '~/components/ui/page-header';

export const metadata = { title: 'Pool-size advisor' };

export default function Page() {
  return (
    <>
      <PageHeader
        title="Which pool size should we use?"
        description="The advisor searches a pool config's max pool size by experiment: a coarse pass over the range, then refinement and repeats where neighbours are close, until it can name the smallest setting that meets your SLO, or its budget is spent."
      />
      <Suspense>
        <AdvisorForm />
      </Suspense>
    </>
  );
}
