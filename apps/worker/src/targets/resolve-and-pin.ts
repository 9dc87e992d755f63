import {
  endpointsOf,
  hasUrlCredentials,
  k6BlacklistFor,
  k6HostsFor,
  ownServicesAtAddress,
  parseIp,
  redactUrl,
  specialLabel,
  URL_CREDENTIALS_MESSAGE,
  type PinnedHost,
} from '@poolbench/contracts/net';
import { ownServices } from '@poolbench/contracts/own-services';
import { RunError } from '../runs/run-error';
import { checkAllowed, refuseOwnServices, resolveHostNames } from './allowlist';

/** What one run may connect to, decided once before any traffic and stored on the run. */
export interface RunNetworkPlan {
  /** every host:port the worker or k6 connects to for this run, at the address checked */
  pins: PinnedHost[];
  /** k6 `hosts` option: the load URLs' names → pinned addresses, anything else → sinkhole */
  k6Hosts: Record<string, string>;
  /** k6 --blacklist-ip: every address except the load URLs' pinned ones */
  k6Blacklist: string[];
}

/** URLs of a target, named by field so an error says which one (e.g. baseUrls.0, applyHookUrl). */
export type NamedUrls = Array<[field: string, url: string]>;

/** Old rows may still carry user:pass@ in a URL: refused, never sent, never echoed. */
export function refuseUrlCredentials(urls: NamedUrls): void {
  for (const [field, url] of urls) {
    if (hasUrlCredentials(url))
      throw new RunError(
        'target_not_allowed',
        `${field}: ${URL_CREDENTIALS_MESSAGE} (${redactUrl(url)})`,
      );
  }
}

/**
 * Resolves every host once, checks every address against the allowlist, and pins each host to
 * the first address it resolved to. Everything after this (probes, k6, the monitor) connects to
 * the pinned address: a name that resolves elsewhere later changes nothing for the run.
 */
export async function resolveAndPin(opts: {
  loadUrls: NamedUrls;
  probeUrls: NamedUrls;
  patterns: string[];
  /** the installation's opened ranges (`'all'`: addresses the installation chose itself) */
  opened: readonly string[] | 'all';
  allowLoopback?: boolean;
}): Promise<RunNetworkPlan> {
  const all = [...opts.loadUrls, ...opts.probeUrls];
  refuseUrlCredentials(all);
  const resolved = await resolveHostNames(all.map(([, u]) => new URL(u).hostname));
  const addressesOf = new Map(resolved.map((r) => [r.host, r.addresses]));
  await refuseOwnServices(
    all.flatMap(([field, u]) =>
      endpointsOf([u]).map((e) => ({ field, ...e, addresses: addressesOf.get(e.host) ?? [] })),
    ),
  );
  checkAllowed(resolved, opts.patterns, { opened: opts.opened, allowLoopback: opts.allowLoopback });
  const addressOf = new Map(resolved.map((r) => [r.host, r.addresses[0]!]));
  const pinsOf = (urls: NamedUrls) =>
    endpointsOf(urls.map(([, u]) => u)).map((e) => ({ ...e, address: addressOf.get(e.host)! }));
  const loadPins = pinsOf(opts.loadUrls);
  await refuseUnholdableLoadPins(loadPins);
  const pins = pinsOf(all);
  return {
    pins,
    k6Hosts: k6HostsFor(loadPins),
    k6Blacklist: k6BlacklistFor(loadPins.map((p) => p.address)),
  };
}

/** The small JSON stored with the run (environment.network) and shown on the run page. */
export function pinsForRecord(
  plan: RunNetworkPlan,
): Array<{ host: string; port: number; address: string }> {
  return plan.pins.map(({ host, port, address }) => ({ host, port, address }));
}

/**
 * k6 can hold a run to the pinned `name:port` only through its `hosts` option, whose `*` entry
 * sends every other name, address and port to the sinkhole (`K6_SINKHOLE`, 0.0.0.0), which the
 * IP blacklist blocks. Two kinds of load address would undo that, and are refused:
 * - an IPv6 literal cannot be a key there, so with one the `*` entry is left out and only the
 *   blacklist applies: every port of that address stays reachable from a script. Refused where
 *   one of the installation's own services listens (any address of this machine, for a service
 *   here; a service's own address elsewhere).
 * - a pinned address in 0.0.0.0/8 (or `::`) takes the sinkhole out of the blacklist, and Linux
 *   connects 0.0.0.0 to this machine.
 */
async function refuseUnholdableLoadPins(loadPins: PinnedHost[]): Promise<void> {
  for (const p of loadPins) {
    const address = parseIp(p.address);
    const label = address && specialLabel(address);
    if (label === 'this network' || label === 'unspecified')
      throw new RunError(
        'target_not_allowed',
        `load to ${p.host}:${p.port} (${p.address}) is not allowed: ${p.address} stands for this machine and is where k6 sends every address a run must not reach; use 127.0.0.1 or the machine's own address instead`,
      );
  }
  const { services, interfaces } = await ownServices();
  for (const p of loadPins) {
    if (parseIp(p.host)?.v !== 6) continue;
    const there = ownServicesAtAddress(p.host, services, interfaces);
    if (there.length > 0)
      throw new RunError(
        'target_not_allowed',
        `load to [${p.host}]:${p.port} is not allowed: k6 can hold an IPv6 address literal to its address but not its port, and the installation's own ${there[0]!.name} listens there; use a host name that resolves to it (e.g. localhost) instead`,
      );
  }
}
