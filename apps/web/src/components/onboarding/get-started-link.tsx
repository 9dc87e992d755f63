import Link from 'next/link';

/** The way back to the onboarding steps from an empty page. */
export function GetStartedLink() {
  return (
    <p className="mt-2">
      New to PoolBench?{' '}
      <Link className="font-medium text-brand-700 hover:underline" href="/getting-started">
        Get started
      </Link>{' '}
      in three steps.
    </p>
  );
}
