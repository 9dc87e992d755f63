'use client';

import { ImageDown } from 'lucide-react';
import { useRef } from 'react';
import { Card } from '~/components/ui/card';
import { cn } from '~/lib/cn';
import { downloadChartPng } from './export-png';
import { ChartPlaceholder, useFrameSlot } from './one-per-frame';

/**
 * A titled chart card with a "download PNG" button; the chart inside is any SVG chart. With a
 * `slot` inside `<FrameSlots>`, the chart draws when its frame comes (see one-per-frame.tsx).
 */
export function ChartFrame({
  title,
  unit,
  children,
  className,
  height = 'h-56',
  testId,
  slot,
}: {
  title: string;
  unit?: string;
  children: React.ReactNode;
  className?: string;
  height?: string;
  testId?: string;
  slot?: number;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const ready = useFrameSlot(slot);
  return (
    <Card className={cn('p-4', className)} data-testid={testId}>
      <div className="mb-2 flex items-center justify-between gap-2">
        <h3 className="text-sm font-semibold text-slate-800" data-chart-title>
          {title}
        </h3>
        <div className="flex items-center gap-2">
          {unit ? <span className="text-xs text-slate-500">{unit}</span> : null}
          <button
            type="button"
            className="rounded p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-700 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
            aria-label={`Download ${title} as PNG`}
            title="Download PNG"
            onClick={() =>
              ref.current &&
              void downloadChartPng(ref.current, title.toLowerCase().replace(/\W+/g, '-'))
            }
          >
            <ImageDown className="size-4" />
          </button>
        </div>
      </div>
      <div ref={ref} className={height}>
        <span className="sr-only" data-chart-title>
          {title}
        </span>
        {ready ? children : <ChartPlaceholder />}
      </div>
    </Card>
  );
}
