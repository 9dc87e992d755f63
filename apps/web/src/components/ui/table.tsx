import { cn } from '~/lib/cn';
import { ScrollX } from './scroll-x';

/** A column heading: its text, or the text with the heading cell's class; `hidden` keeps it for screen readers only. */
export type Heading =
  React.ReactNode | { label: React.ReactNode; className?: string; hidden?: boolean; key?: string };

function isHeadingObject(
  h: Heading,
): h is { label: React.ReactNode; className?: string; hidden?: boolean; key?: string } {
  return typeof h === 'object' && h !== null && 'label' in h;
}

/**
 * A bordered table that scrolls sideways on narrow screens. With `head`, it writes the heading row
 * and puts `children` (the rows) in a divided body; without it, `children` are the whole table.
 */
export function Table({
  className,
  children,
  label,
  head,
  bodyTestId,
}: {
  className?: string;
  children: React.ReactNode;
  label?: string;
  head?: Heading[];
  bodyTestId?: string;
}) {
  return (
    <ScrollX
      label={label}
      className={cn('rounded-xl border border-slate-200 bg-white shadow-sm', className)}
    >
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        {head ? (
          <>
            <thead>
              <tr>
                {head.map((h, i) =>
                  isHeadingObject(h) ? (
                    <Th key={h.key ?? i} className={h.className}>
                      {h.hidden ? <span className="sr-only">{h.label}</span> : h.label}
                    </Th>
                  ) : (
                    <Th key={i}>{h}</Th>
                  ),
                )}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100" data-testid={bodyTestId}>
              {children}
            </tbody>
          </>
        ) : (
          children
        )}
      </table>
    </ScrollX>
  );
}

/**
 * A table that sits inside a card (the card is its frame): figures line up (tabular numbers), the
 * heading rows (`head`, whole `<tr>`s) share one muted style, and `children` are the body's rows.
 * It scrolls sideways on narrow screens. A heading over several columns (`scope="colgroup"`) needs
 * those columns grouped: `colgroups` gives each group's width in columns, left to right.
 */
export function CardTable({
  label,
  head,
  children,
  testId,
  colgroups,
}: {
  label: string;
  head: React.ReactNode;
  children: React.ReactNode;
  testId?: string;
  colgroups?: readonly number[];
}) {
  return (
    <ScrollX label={label}>
      <table className="min-w-full text-sm tabular-nums" data-testid={testId}>
        {colgroups?.map((span, i) => (
          <colgroup key={i} span={span} />
        ))}
        <thead className="bg-slate-50 text-xs font-semibold uppercase tracking-wide text-slate-500">
          {head}
        </thead>
        <tbody className="divide-y divide-slate-100">{children}</tbody>
      </table>
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
