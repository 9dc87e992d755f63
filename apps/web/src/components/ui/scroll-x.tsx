'use client';

import { useEffect, useState } from 'react';
import { cn } from '~/lib/cn';

/**
 * A box that scrolls sideways when its content is wider (a table on a phone). While it does, it
 * is focusable, so a keyboard can scroll it too (axe's scrollable-region-focusable). Relative, so
 * an absolutely placed descendant (an sr-only label) stays inside instead of widening the page.
 */
export function ScrollX({
  className,
  children,
  label,
  ...rest
}: React.HTMLAttributes<HTMLDivElement> & { label?: string; 'data-testid'?: string }) {
  const [el, setEl] = useState<HTMLDivElement | null>(null);
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    if (!el) return;
    // the observer reports once at once, then on every change of the box or its content
    const ro = new ResizeObserver(() => setScrolls(el.scrollWidth > el.clientWidth + 1));
    ro.observe(el);
    for (const c of el.children) ro.observe(c);
    return () => ro.disconnect();
  }, [el]);
  return (
    <div
      ref={setEl}
      className={cn('relative overflow-x-auto', className)}
      {...(scrolls
        ? { tabIndex: 0, role: 'region', 'aria-label': label ?? 'Scrollable table' }
        : {})}
      {...rest}
    >
      {children}
    </div>
  );
}
