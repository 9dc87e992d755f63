'use client';

import { useRef, useState } from 'react';

/**
 * Copies text to the clipboard. The Clipboard API exists only in a secure context (https or
 * localhost), and a self-hosted PoolBench is often opened over plain http on its LAN address:
 * there the copy goes through a selected, off-screen text area instead. False when neither worked
 * (the browser refused), so the button can say so instead of claiming a copy that did not happen.
 */
export async function copyText(text: string): Promise<boolean> {
  if (navigator.clipboard?.writeText) {
    const ok = await navigator.clipboard.writeText(text).then(
      () => true,
      () => false,
    );
    if (ok) return true;
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.left = '-9999px';
  // the focus goes back to the button afterwards, for a keyboard user
  const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  document.body.appendChild(area);
  area.focus();
  area.select();
  try {
    // deprecated, but the one way left outside a secure context
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    area.remove();
    before?.focus();
  }
}

/** What a copy button says in each state. */
export const COPY_LABELS = {
  idle: 'Copy',
  copied: 'Copied',
  failed: 'Copy failed: select the text and copy it',
} as const;

/**
 * A copy button's state: `copy(text)` copies, and `state` is 'copied' for a moment after it
 * worked, 'failed' after it did not (until the next try or `reset()`), else 'idle'.
 */
export function useCopy(): {
  state: keyof typeof COPY_LABELS;
  copy: (text: string) => void;
  reset: () => void;
} {
  const [state, setState] = useState<keyof typeof COPY_LABELS>('idle');
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const copy = (text: string) => {
    void copyText(text).then((ok) => {
      if (timer.current) clearTimeout(timer.current);
      setState(ok ? 'copied' : 'failed');
      if (ok) timer.current = setTimeout(() => setState('idle'), 1500);
    });
  };
  const reset = () => {
    if (timer.current) clearTimeout(timer.current);
    setState('idle');
  };
  return { state, copy, reset };
}
