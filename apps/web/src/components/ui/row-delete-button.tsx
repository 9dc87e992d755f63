'use client';

import { Trash2 } from 'lucide-react';
import { ConfirmButton } from './confirm-button';

/**
 * The small trash button at the end of a table row: asks in an in-app dialog before it calls
 * onConfirm. The dialog's button repeats the action's verb ("Delete", "Archive", "Remove").
 */
export function RowDeleteButton({
  label,
  question,
  onConfirm,
  confirmLabel,
}: {
  label: string;
  question: string;
  onConfirm: () => void;
  confirmLabel?: string;
}) {
  return (
    <ConfirmButton
      size="sm"
      variant="danger-ghost"
      aria-label={label}
      question={question}
      confirmLabel={confirmLabel ?? label.split(' ')[0] ?? 'Confirm'}
      onConfirm={onConfirm}
    >
      <Trash2 className="size-3.5" />
    </ConfirmButton>
  );
}
