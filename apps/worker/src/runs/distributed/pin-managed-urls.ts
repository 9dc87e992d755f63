import { resolveHostNames } from '../../targets/allowlist';
import { resolveAndPin, type RunNetworkPlan } from '../../targets/resolve-and-pin';

/**
 * Pins the URLs of a managed target this installation started itself: on loopback for a run on
 * one worker, on WORKER_ADVERTISE_HOST (a private address) when other workers' k6 must reach it.
 * The worker's own advertised address is trusted as exactly that address (a /32 or /128), nothing
 * wider, so k6 still blocks every other address.
 */
export async function pinManagedUrls(baseUrls: string[]): Promise<RunNetworkPlan> {
  const hosts = [...new Set(baseUrls.map((u) => new URL(u).hostname))];
  const resolved = await resolveHostNames(hosts);
  const exact = resolved.flatMap((r) =>
    r.addresses.map((a) => (a.includes(':') ? `${a}/128` : `${a}/32`)),
  );
  return resolveAndPin({
    loadUrls: baseUrls.map((u, i) => [`baseUrls.${i}`, u]),
    probeUrls: [],
    patterns: exact,
    // the installation started this target and chose its address: no team range is involved
    opened: 'all',
    allowLoopback: true,
  });
}
