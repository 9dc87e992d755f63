import { cn } from '~/lib/cn';

/** The heading style of a page section: small, uppercase, quiet. */
export const sectionHeading = 'text-sm font-semibold uppercase tracking-wide text-slate-500';

/** A page section named by its heading (`aria-labelledby`), with an optional icon before the title. */
export function Section({
  id,
  title,
  icon: Icon,
  className,
  children,
}: {
  id: string;
  title: React.ReactNode;
  icon?: React.ComponentType<{ className?: string }>;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <section aria-labelledby={id} className={className}>
      <h2 id={id} className={cn('mb-3', Icon && 'flex items-center gap-2', sectionHeading)}>
        {Icon ? <Icon className="size-4" /> : null}
        {title}
      </h2>
      {children}
    </section>
  );
}
