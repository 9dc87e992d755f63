import { ExperimentList } from '~/components/experiments/experiment-list';

export const metadata = { title: 'Experiments' };

export default function Page() {
  return <ExperimentList />;
}
