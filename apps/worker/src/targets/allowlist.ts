import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import {
  addressOpened,
  canonicalIp,
  cidrContains,
  formatIp,
  judgedIp,
  notOpenedMessage,
  parseCidr,
  parseOpened,
  parseIp,
  specialLabel,
  touchesLinkLocalOrMetadata,
} from '@poolbench/contracts/net';
import { ownServiceRefusal } from '@poolbench/contracts/own-services';
import { RunError } from '../runs/run-error';

export interface ResolvedHost {
  host: string;
  /** canonical form: IPv4-mapped/compatible IPv6 addresses are written as the IPv4 they carry */
  addresses: string[];
}

const stripBrackets = (h: string) => h.replace(/^\[|\]$/g, '');
const canonical = (a: string) => {
  const ip = canonicalIp(a);
  return ip ? formatIp(ip) : a;
};

function hostMatches(host: string, patterns: string[]): boolean {
  const h = host.toLowerCase();
  return patterns.some((p) => {
    const q = p.toLowerCase();
    if (isIP(q.split('/')[0] ?? '') !== 0) return false;
    return q.startsWith('*.') ? h.endsWith(q.slice(1)) && h.length > q.length - 1 : h === q;
  });
}

/** Resolves each distinct host name once (IP literals stand for themselves). */
export async function resolveHostNames(hosts: string[]): Promise<ResolvedHost[]> {
  return Promise.all(
    [...new Set(hosts.map((h) => stripBrackets(h).toLowerCase()))].map(async (host) => {
      if (isIP(host)) return { host, addresses: [canonical(host)] };
      try {
        const res = await lookup(host, { all: true });
        return { host, addresses: [...new Set(res.map((r) => canonical(r.address)))] };
      } catch (err) {
        throw new RunError(
          'target_unresolvable',
          `cannot resolve ${host}: ${(err as Error).message}`,
        );
      }
    }),
  );
}

export async function resolveHosts(baseUrls: string[]): Promise<ResolvedHost[]> {
  return resolveHostNames(baseUrls.map((u) => new URL(u).hostname));
}

/**
 * A host is allowed when every address it resolves to is allowed: an address is allowed when it
 * matches an IP/CIDR pattern, or when the host name matches a name pattern and the address is
 * not special-purpose (so a public name cannot be pointed at internal ranges by DNS). A
 * special-purpose address is allowed only inside a range the installation opened (`opened`, the
 * installation's ranges; `'all'` only for addresses the installation itself chose, such as the
 * managed target it started), so an entry saved before its range was opened reaches nothing.
 * Link-local and cloud metadata addresses are never allowed, whatever an (old) allowlist entry says.
 */
export function checkAllowed(
  resolved: ResolvedHost[],
  patterns: string[],
  opts: { opened: readonly string[] | 'all'; allowLoopback?: boolean },
): void {
  const cidrs = patterns.map((p) => parseCidr(p)).filter((c) => c !== null);
  const opened = opts.opened === 'all' ? null : parseOpened(opts.opened);
  for (const r of resolved) {
    const nameOk = hostMatches(r.host, patterns);
    for (const addr of r.addresses) {
      const ip = canonicalIp(addr);
      if (!ip)
        throw new RunError(
          'target_not_allowed',
          `load to ${r.host} (${addr}) is not allowed: not an IP address`,
        );
      const label = specialLabel(ip);
      const metadata = touchesLinkLocalOrMetadata({ v: ip.v, n: ip.n, len: ip.v === 4 ? 32 : 128 });
      if (metadata)
        throw new RunError(
          'target_not_allowed',
          `load to ${r.host} (${addr}) is never allowed: it is ${metadata}`,
        );
      if (opts.allowLoopback && label === 'loopback') continue;
      if (cidrs.some((c) => cidrContains(c, ip) || cidrContains(c, judgedIp(ip)))) {
        if (label === null || !opened || addressOpened(ip, opened)) continue;
        throw new RunError(
          'target_not_allowed',
          `load to ${r.host} (${addr}) is not allowed: ${notOpenedMessage(formatIp(judgedIp(ip)), judgedIp(ip))}`,
        );
      }
      if (nameOk && label === null) continue;
      throw new RunError(
        'target_not_allowed',
        `load to ${r.host} (${addr}) is not allowed for this team${label ? ` (${label} address)` : ''}; an admin can add ${nameOk ? addr : r.host} to the team's allowed hosts`,
      );
    }
  }
}

export const isIpLiteral = (host: string) => parseIp(host) !== null;

/**
 * The installation's own services (Postgres, Redis, the lab databases, SMTP and the mail catcher,
 * the web app, the worker's ops port) are never a destination, whatever the allowlist says or
 * whoever saved the URL: every resolved address of `host` is judged with the port, so a name that
 * resolves inward after it was saved is refused here, before anything is pinned.
 */
export async function refuseOwnServices(
  endpoints: ReadonlyArray<{ field: string; host: string; port: number; addresses: string[] }>,
  env?: NodeJS.ProcessEnv,
): Promise<void> {
  for (const e of endpoints) {
    const refusal = await ownServiceRefusal(e.host, e.port, e.addresses, env);
    if (refusal) throw new RunError('target_not_allowed', `${e.field}: ${refusal}`);
  }
}
