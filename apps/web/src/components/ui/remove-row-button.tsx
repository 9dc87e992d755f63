'use client';

import { Trash2 } from 'lucide-react';
import { Button } from './button';

/**
 * The trash button that takes one row out of a form being edited (a header, a stage, a check, a
 * file). It acts at once: nothing is saved until the form is, so there is nothing to confirm
 * (RowDeleteButton asks first, for rows that are saved). `label` names the row for screen readers.
 */
export function RemoveRowButton({
  label,
  onClick,
  disabled,
}: {
  label: string;
  onClick: () => void;
  disabled?: boolean;
}) {
  return (
    <Button
      variant="danger-ghost"
      size="sm"
      aria-label={label}
      disabled={disabled}
      onClick={onClick}
    >
      <Trash2 className="size-4" />
    </Button>
  );
}
