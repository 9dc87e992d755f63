import { cn } from '~/lib/cn';

const th = 'bg-slate-50 px-4 py-2.5 text-xs font-semibold uppercase tracking-wide text-slate-500';
/** A number cell of a card table: right-aligned, as its column head. */
export const numberCell = 'px-4 py-2 text-right';

/** A column of a card table: a number column (right-aligned) unless it says `left`. */
export type CardColumn = string | { label: string; left: true };

/**
 * The table of a run page card: the first column names the row, the others are its numbers.
 * `children` are the bodies (one `tbody` each, e.g. one per group), or rows for a single body.
 */
export function CardTable({
  first,
  columns,
  bodies,
  children,
}: {
  first: React.ReactNode;
  columns: readonly CardColumn[];
  bodies?: boolean;
  children: React.ReactNode;
}) {
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full text-sm tabular-nums">
        <thead>
          <tr className="border-b border-slate-200">
            <th scope="col" className={cn(th, 'text-left')}>
              {first}
            </th>
            {columns.map((c) =>
              typeof c === 'string' ? (
                <th key={c} scope="col" className={cn(th, 'text-right')}>
                  {c}
                </th>
              ) : (
                <th key={c.label} scope="col" className={cn(th, 'text-left')}>
                  {c.label}
                </th>
              ),
            )}
          </tr>
        </thead>
        {bodies ? children : <tbody className="divide-y divide-slate-100">{children}</tbody>}
      </table>
    </div>
  );
}
