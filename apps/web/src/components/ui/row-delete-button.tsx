'use client';

import { Trash2 } from 'lucide-react';
import { Button } from './button';

/** The small trash button at the end of a table row: asks before it calls onConfirm. */
export function RowDeleteButton({ label, question, onConfirm }: { label: string; question: string; onConfirm: () => void }) {
  return (
    <Button size="sm" variant="danger-ghost" aria-label={label} onClick={() => confirm(question) && onConfirm()}>
      <Trash2 className="size-3.5" />
    </Button>
  );
}
