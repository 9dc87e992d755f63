'use client';

import { X } from 'lucide-react';
import { useEffect, useId, useRef } from 'react';
import { focusRing } from './button';
import { cn } from '~/lib/cn';

/**
 * Native <dialog>: focus trap, Escape and the inert background come from the browser. The role,
 * aria-modal and the labels are explicit, so assistive technology that does not map a modal
 * <dialog> on its own still announces a labelled modal dialog.
 */
export function Dialog({
  open,
  onClose,
  title,
  description,
  children,
  wide,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: string;
  children: React.ReactNode;
  wide?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      onClose={onClose}
      role="dialog"
      aria-modal="true"
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      className={cn(
        'm-auto w-full rounded-xl border border-slate-200 p-0 shadow-2xl backdrop:bg-slate-900/40',
        wide ? 'max-w-3xl' : 'max-w-lg',
      )}
    >
      {open ? (
        <div>
          <div className="flex items-start justify-between gap-4 border-b border-slate-100 px-5 py-4">
            <div>
              <h2 id={titleId} className="text-base font-semibold text-slate-900">
                {title}
              </h2>
              {description ? (
                <p id={descriptionId} className="mt-0.5 text-sm text-slate-500">
                  {description}
                </p>
              ) : null}
            </div>
            <button
              type="button"
              onClick={onClose}
              className={cn('rounded p-1 text-slate-500 hover:bg-slate-100', focusRing)}
              aria-label="Close"
            >
              <X className="size-4" />
            </button>
          </div>
          <div className="px-5 py-4">{children}</div>
        </div>
      ) : null}
    </dialog>
  );
}
