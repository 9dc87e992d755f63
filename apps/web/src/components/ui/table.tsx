import { cn } from '~/lib/cn';
import { ScrollX } from './scroll-x';

export function Table({
  className,
  children,
  label,
}: {
  className?: string;
  children: React.ReactNode;
  label?: string;
}) {
  return (
    <ScrollX
      label={label}
      className={cn('rounded-xl border border-slate-200 bg-white shadow-sm', className)}
    >
      <table className="min-w-full divide-y divide-slate-200 text-sm">{children}</table>
    </ScrollX>
  );
}

export function Th({ className, children, ...rest }: React.ThHTMLAttributes<HTMLTableCellElement>) {
  return (
    <th
      scope="col"
      className={cn(
        'bg-slate-50 px-4 py-2.5 text-left text-xs font-semibold uppercase tracking-wide text-slate-500',
        className,
      )}
      {...rest}
    >
      {children}
    </th>
  );
}

export function Td({ className, children, ...rest }: React.TdHTMLAttributes<HTMLTableCellElement>) {
  return (
    <td className={cn('whitespace-nowrap px-4 py-3 text-slate-700', className)} {...rest}>
      {children}
    </td>
  );
}
