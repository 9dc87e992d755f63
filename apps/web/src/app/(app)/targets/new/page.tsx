import { TargetForm } from '~/components/targets/target-form';
import { PageHeader } from '~/components/ui/page-header';

export const metadata = { title: 'New target' };

export default function NewTargetPage() {
  return (
    <div className="max-w-4xl">
      <PageHeader
        crumbs={[{ href: '/targets', label: 'Targets' }]}
        title="New target"
        description="Admins manage targets. Load only ever goes to hosts on the team allowlist."
      />
      <TargetForm />
    </div>
  );
}
