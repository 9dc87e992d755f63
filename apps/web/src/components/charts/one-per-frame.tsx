'use client';

import { createContext, useContext, useEffect, useState } from 'react';

/**
 * Charts mount one per animation frame, so a page of charts never draws them all in one long
 * main-thread task (see the web-render benchmark). Not in a transition: on a loaded machine a
 * live run's second arrived before the transition's render finished, every second, so the
 * transition restarted forever and the charts never appeared (seen in a fresh-clone e2e run at
 * load 13); a plain update per frame always makes progress, and is still one chart per task. A page calls
 * `useOnePerFrame(count)`, provides the result with `<FrameSlots>`, and each chart asks
 * `useFrameSlot(itsIndex)` whether it may draw yet; outside a provider every chart draws at once.
 */
const Shown = createContext(Infinity);

export function useOnePerFrame(total: number): number {
  const [shown, setShown] = useState(0);
  useEffect(() => {
    if (shown >= total) return;
    const id = requestAnimationFrame(() => setShown((n) => n + 1));
    return () => cancelAnimationFrame(id);
  }, [shown, total]);
  return shown;
}

export function FrameSlots({ shown, children }: { shown: number; children: React.ReactNode }) {
  return <Shown.Provider value={shown}>{children}</Shown.Provider>;
}

/**
 * Hook and provider in one, for a part of a page that mounts when its data is there; its
 * `data-charts-drawn` says when every chart has had its frame (tests wait for it).
 */
export function OnePerFrame({
  count,
  children,
  testId,
}: {
  count: number;
  children: React.ReactNode;
  testId?: string;
}) {
  const shown = useOnePerFrame(count);
  return (
    <div className="contents" data-testid={testId} data-charts-drawn={shown >= count}>
      <FrameSlots shown={shown}>{children}</FrameSlots>
    </div>
  );
}

export function useFrameSlot(slot: number | undefined): boolean {
  const shown = useContext(Shown);
  return slot === undefined || slot < shown;
}

/** Stands in for a chart that has not drawn yet, at its size. */
export function ChartPlaceholder() {
  return <div className="h-full motion-safe:animate-pulse rounded-md bg-slate-50" aria-hidden />;
}
