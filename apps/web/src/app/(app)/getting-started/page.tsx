import { OnboardingSteps } from '~/components/onboarding/onboarding-steps';
import { PageHeader } from '~/components/ui/page-header';

export const metadata = { title: 'Get started' };

export default function Page() {
  return (
    <>
      <PageHeader
        title="Get started"
        description="The path from an empty team to a measured comparison of pool configs. Each step is checked against your team's own targets, scenarios and experiments."
      />
      <OnboardingSteps />
    </>
  );
}
