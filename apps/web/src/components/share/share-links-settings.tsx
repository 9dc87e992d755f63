'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link2 } from 'lucide-react';
import { useTRPC } from '~/lib/trpc/react';
import { useRole } from '~/lib/hooks/use-role';
import { formatDateTime, formatRelative } from '~/lib/format';
import { Badge } from '~/components/ui/badge';
import { ConfirmButton } from '~/components/ui/confirm-button';
import { Card, CardBody, CardHeader } from '~/components/ui/card';
import { LoadingBlock } from '~/components/ui/feedback';
import { ErrorAlert } from '~/components/ui/query-state';
import { ScrollX } from '~/components/ui/scroll-x';

const STATE_TONE = { active: 'green', revoked: 'neutral', expired: 'amber' } as const;

/** Team settings: every share link with its state and use; members may revoke. */
export function ShareLinksSettings() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const { can } = useRole();
  const q = useQuery(trpc.shareLink.list.queryOptions());
  const revoke = useMutation(
    trpc.shareLink.revoke.mutationOptions({
      onSettled: () => qc.invalidateQueries({ queryKey: trpc.shareLink.list.queryKey() }),
    }),
  );
  return (
    <Card data-testid="share-links">
      <CardHeader
        title="Share links"
        description="Read-only links to runs, comparisons and experiments that work without signing in. Tokens are shown once and stored as hashes; revoking takes effect immediately."
      />
      <CardBody className="p-0">
        <ErrorAlert error={revoke.error} className="m-4" />
        {q.isPending ? (
          <div className="p-4">
            <LoadingBlock rows={2} />
          </div>
        ) : !q.data?.length ? (
          <div className="flex items-center gap-3 px-5 py-6 text-sm text-slate-500">
            <Link2 className="size-4" /> No share links yet. Use “Share” on a run, an experiment or
            a comparison.
          </div>
        ) : (
          <ScrollX label="Share links">
            <table className="min-w-full text-sm">
              <thead>
                <tr className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-500">
                  <th className="px-5 py-2.5">Title</th>
                  <th className="px-4 py-2.5">Shows</th>
                  <th className="px-4 py-2.5">State</th>
                  <th className="px-4 py-2.5">Opened</th>
                  <th className="px-4 py-2.5">Expires</th>
                  <th className="px-4 py-2.5" />
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {q.data.map((l) => (
                  <tr key={l.id} data-testid="share-link-row">
                    <td className="px-5 py-3 font-medium text-slate-900">
                      {l.title}
                      <div className="text-xs font-normal text-slate-500">
                        created {formatDateTime(l.createdAt)}
                      </div>
                    </td>
                    <td className="px-4 py-3 capitalize text-slate-600">{l.kind}</td>
                    <td className="px-4 py-3">
                      <Badge tone={STATE_TONE[l.state]}>{l.state}</Badge>
                    </td>
                    <td className="px-4 py-3 text-slate-600">
                      {l.accessCount}×{' '}
                      {l.lastAccessedAt ? (
                        <span className="text-xs text-slate-500">
                          · {formatRelative(l.lastAccessedAt)}
                        </span>
                      ) : null}
                    </td>
                    <td className="px-4 py-3 text-slate-600">
                      {l.expiresAt ? formatDateTime(l.expiresAt) : 'never'}
                    </td>
                    <td className="px-4 py-3 text-right">
                      {can('member') && l.state === 'active' ? (
                        <ConfirmButton
                          variant="danger-ghost"
                          size="sm"
                          loading={revoke.isPending && revoke.variables?.id === l.id}
                          question={`Revoke the link "${l.title}"?`}
                          detail="Anyone who opens it afterwards gets 404. This cannot be undone."
                          confirmLabel="Revoke link"
                          onConfirm={() => revoke.mutate({ id: l.id })}
                        >
                          Revoke
                        </ConfirmButton>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollX>
        )}
      </CardBody>
    </Card>
  );
}
