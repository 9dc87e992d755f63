'use client';

import { Check, Copy } from 'lucide-react';
import { cn } from '~/lib/cn';
import { COPY_LABELS, useCopy } from '~/lib/hooks/use-copy';
import { focusRing } from './button';

export function CodeBlock({
  code,
  label,
  className,
  maxHeight = 'max-h-96',
}: {
  code: string;
  label: string;
  className?: string;
  maxHeight?: string;
}) {
  const { state, copy } = useCopy();
  return (
    <div
      className={cn(
        'relative overflow-hidden rounded-lg border border-slate-800 bg-slate-950',
        className,
      )}
    >
      <div className="flex items-center justify-between border-b border-slate-800 px-3 py-1.5 text-xs text-slate-400">
        <span>{label}</span>
        <button
          type="button"
          className={cn(
            'inline-flex items-center gap-1 rounded px-1.5 py-0.5 hover:bg-slate-800 hover:text-slate-200',
            focusRing,
          )}
          onClick={() => copy(code)}
        >
          {state === 'copied' ? <Check className="size-3" /> : <Copy className="size-3" />}
          {COPY_LABELS[state]}
        </button>
      </div>
      <pre
        className={cn(
          'overflow-auto p-3 font-mono text-xs leading-relaxed text-slate-200',
          maxHeight,
        )}
        tabIndex={0}
        aria-label={label}
      >
        <code>{code}</code>
      </pre>
    </div>
  );
}
