import { ScenariosPage } from '~/components/scenarios/scenarios-page';

export const metadata = { title: 'Scenarios' };

export default function Page() {
  return <ScenariosPage />;
}
