import { Suspense } from 'react';
import { ExperimentForm } from '~/components/experiments/experiment-form';
import { PageHeader } from '~/components/ui/page-header';

export const metadata = { title: 'New experiment' };

export default function Page() {
  return (
    <>
      <PageHeader
        crumbs={[{ href: '/experiments', label: 'Experiments' }]}
        title="New experiment"
        description="Every pool config runs every scenario, repeated and interleaved, so differences can be tested for significance."
      />
      <Suspense>
        <ExperimentForm />
      </Suspense>
    </>
  );
}
