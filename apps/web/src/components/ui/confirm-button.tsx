'use client';

import { useState } from 'react';
import { Button, type ButtonVariant } from './button';
import { Dialog } from './dialog';

type ButtonProps = React.ComponentProps<typeof Button>;

/**
 * A button that asks first, in an in-app dialog instead of the browser's confirm(): it is styled
 * like the app, names what will happen on its buttons, is reachable by keyboard and screen reader
 * (native <dialog>: focus moves in, Escape keeps things as they are) and is not blocked by browsers
 * that suppress repeated native dialogs.
 */
export function ConfirmButton({
  question,
  detail,
  confirmLabel,
  cancelLabel = 'Keep',
  confirmVariant = 'danger',
  onConfirm,
  children,
  ...button
}: Omit<ButtonProps, 'onClick'> & {
  question: string;
  detail?: string;
  confirmLabel: string;
  cancelLabel?: string;
  confirmVariant?: ButtonVariant;
  onConfirm: () => void;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button {...button} onClick={() => setOpen(true)}>
        {children}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} title={question} description={detail}>
        <div className="flex justify-end gap-2" data-testid="confirm-dialog">
          <Button variant="secondary" onClick={() => setOpen(false)} autoFocus>
            {cancelLabel}
          </Button>
          <Button
            variant={confirmVariant}
            onClick={() => {
              setOpen(false);
              onConfirm();
            }}
          >
            {confirmLabel}
          </Button>
        </div>
      </Dialog>
    </>
  );
}
