'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Check, Copy, Link2 } from 'lucide-react';
import { useState } from 'react';
import { COPY_LABELS, useCopy } from '~/lib/hooks/use-copy';
import { useTRPC } from '~/lib/trpc/react';
import { messageOf, problemsOf } from '~/lib/trpc/errors';
import { Button } from '~/components/ui/button';
import { Dialog } from '~/components/ui/dialog';
import { Alert } from '~/components/ui/feedback';
import { Input, Label } from '~/components/ui/form';
import { ExpiresField } from '~/components/ui/expires-field';
import { TextField } from '~/components/ui/text-field';
import type { Selection } from '~/lib/compare/selection';

export type ShareTargetInput =
  | { kind: 'run'; runId: string }
  | { kind: 'experiment'; experimentId: string }
  | { kind: 'comparison'; selection: Selection };

/** Creates a share link; the URL (with its token) is shown once, here. */
export function ShareButton({
  target,
  defaultTitle,
  size = 'md',
}: {
  target: ShareTargetInput;
  defaultTitle: string;
  size?: 'sm' | 'md';
}) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const [title, setTitle] = useState(defaultTitle);
  const [expiresInDays, setExpiresInDays] = useState<number | null>(30);
  const { state: copied, copy, reset: resetCopy } = useCopy();
  const create = useMutation(
    trpc.shareLink.create.mutationOptions({
      onSuccess: () => qc.invalidateQueries({ queryKey: trpc.shareLink.list.queryKey() }),
    }),
  );
  const problems = problemsOf(create.error);
  const url = create.data
    ? `${typeof window === 'undefined' ? '' : window.location.origin}${create.data.path}`
    : null;
  return (
    <>
      <Button
        variant="secondary"
        size={size}
        onClick={() => {
          create.reset();
          resetCopy();
          setOpen(true);
        }}
      >
        <Link2 className="size-4" /> Share
      </Button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title="Share read-only results"
        description="Anyone with the link sees these results without signing in: no scripts, target addresses or other team data."
      >
        {url ? (
          <div className="space-y-3">
            <Label htmlFor="share-url">Share link</Label>
            <div className="flex gap-2">
              <Input
                id="share-url"
                readOnly
                value={url}
                data-testid="share-url"
                className="min-w-0 flex-1 bg-slate-50 font-mono text-xs"
                onFocus={(e) => e.currentTarget.select()}
              />
              <Button variant="secondary" onClick={() => copy(url)}>
                {copied === 'copied' ? <Check className="size-4" /> : <Copy className="size-4" />}{' '}
                {COPY_LABELS[copied]}
              </Button>
            </div>
            <p className="text-xs text-slate-500">
              This is the only time the link is shown; PoolBench stores a hash of it. Revoke it any
              time in Settings → Share links.
            </p>
          </div>
        ) : (
          <form
            className="space-y-4"
            onSubmit={(e) => {
              e.preventDefault();
              create.mutate({
                target,
                title,
                expiresInDays,
              });
            }}
          >
            <TextField
              label="Title"
              error={problems.title}
              value={title}
              onValue={setTitle}
              maxLength={120}
              required
            />
            <ExpiresField
              choices={[1, 7, 30, 90]}
              value={expiresInDays}
              onChange={setExpiresInDays}
            />
            {create.isError && !problems.title ? (
              <Alert tone="error">{messageOf(create.error)}</Alert>
            ) : null}
            <div className="flex justify-end gap-2">
              <Button variant="ghost" onClick={() => setOpen(false)}>
                Cancel
              </Button>
              <Button type="submit" loading={create.isPending}>
                Create link
              </Button>
            </div>
          </form>
        )}
      </Dialog>
    </>
  );
}
