import { z } from 'zod';

const NetworkSchema = z.object({
  pins: z.array(z.object({ host: z.string(), port: z.number(), address: z.string() })),
});

/** The run's environment JSON without the network part (shown on its own line). */
export function withoutNetwork(
  environment: Record<string, unknown> | null,
): Record<string, unknown> {
  const { network: _network, ...rest } = environment ?? {};
  return rest;
}

/**
 * Where this run's traffic was allowed to go: each host the worker resolved and checked once at
 * the start, with the address every connection of the run used.
 */
export function RunNetworkLine({ environment }: { environment: { network?: unknown } | null }) {
  const parsed = NetworkSchema.safeParse(environment?.network);
  if (!parsed.success || parsed.data.pins.length === 0) return null;
  const pins = parsed.data.pins.map((p) =>
    p.host === p.address ? `${p.host}:${p.port}` : `${p.host}:${p.port} → ${p.address}`,
  );
  return (
    <p className="mb-3 text-xs text-slate-600" data-testid="run-network">
      <span className="font-medium text-slate-700">Pinned addresses</span> (resolved and checked
      once, used for every connection): <span className="font-mono">{pins.join(', ')}</span>
    </p>
  );
}
