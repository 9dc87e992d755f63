import { SettingsPage } from '~/components/settings/settings-page';

export const metadata = { title: 'Settings' };

export default function Page() {
  return <SettingsPage />;
}
