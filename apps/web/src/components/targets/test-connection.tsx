'use client';

import { useMutation } from '@tanstack/react-query';
import { PlugZap } from 'lucide-react';
import { useTRPC } from '~/lib/trpc/react';
import { Badge } from '~/components/ui/badge';
import { Button } from '~/components/ui/button';
import { ErrorAlert } from '~/components/ui/query-state';

/** Probes a URL target's first base URL (managed targets run only during runs: nothing to probe). */
export function TestConnection({ targetId }: { targetId: string }) {
  const trpc = useTRPC();
  const test = useMutation(trpc.target.testConnection.mutationOptions());
  const r = test.data;
  return (
    <div className="space-y-3">
      <Button
        variant="secondary"
        onClick={() => test.mutate({ id: targetId })}
        loading={test.isPending}
      >
        <PlugZap className="size-4" /> Test connection
      </Button>
      <ErrorAlert error={test.error} />
      {r?.kind === 'url' ? (
        <div className="rounded-lg border border-slate-200 p-3 text-sm">
          <div className="flex flex-wrap items-center gap-2">
            <Badge tone={r.ok ? 'green' : 'red'}>{r.status ?? 'no response'}</Badge>
            <span className="font-mono text-xs text-slate-600">{r.url}</span>
            <span className="text-xs text-slate-500">{r.latencyMs} ms</span>
          </div>
          {r.error ? <p className="mt-2 text-xs text-red-700">{r.error}</p> : null}
          {r.headers.length > 0 ? (
            <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 font-mono text-[11px]">
              {r.headers.map(([k, v]) => (
                <div key={k} className="contents">
                  <dt className="text-slate-500">{k}</dt>
                  <dd className="truncate text-slate-800">{v}</dd>
                </div>
              ))}
            </dl>
          ) : null}
          <p className="mt-2 text-xs text-slate-500">{r.note}</p>
        </div>
      ) : null}
    </div>
  );
}
