import { cn } from '~/lib/cn';

/** A link to the CI job that started an experiment, opened in a new tab; nothing without one. */
export function CiJobLink({ url, className }: { url: string | null; className?: string }) {
  if (!url) return null;
  return (
    <a
      href={url}
      target="_blank"
      rel="noopener noreferrer"
      className={cn('text-brand-700 hover:underline', className)}
    >
      CI job
    </a>
  );
}
