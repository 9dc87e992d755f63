import { openedRanges, type Db } from '@poolbench/db';
import { parseIp, touchesLinkLocalOrMetadata } from '@poolbench/contracts/net';
import { PolicyError } from '../errors';
import { hostAllowed, unopenedHostReason } from '../teams/host-allowed';

/**
 * Every URL a URL target reaches must be on the team allowlist; the error names the hosts. An IP
 * literal in link-local or a cloud metadata address (IPv4-in-IPv6 forms judged by their IPv4) is
 * refused whatever the allowlist says, as the worker would refuse it at run time; so is a
 * special-purpose IP literal outside the ranges the installation opened.
 */
export async function checkTargetHosts(db: Db, teamId: string, urls: string[]): Promise<void> {
  const hosts = [...new Set(urls.map((u) => new URL(u).hostname))];
  for (const h of hosts) {
    const ip = parseIp(h);
    const why = ip && touchesLinkLocalOrMetadata({ v: ip.v, n: ip.n, len: ip.v === 4 ? 32 : 128 });
    if (why) throw new PolicyError(`load to ${h} is never allowed: it is ${why}`);
  }
  const [rows, opened] = await Promise.all([
    db.allowedHost.findMany({ where: { teamId }, select: { pattern: true } }),
    openedRanges(db),
  ]);
  const patterns = rows.map((r) => r.pattern);
  const denied = hosts.filter((h) => !hostAllowed(h, patterns));
  if (denied.length > 0) {
    throw new PolicyError(
      `${denied.join(', ')} ${denied.length === 1 ? 'is' : 'are'} not on the team allowlist. An admin can add ${denied.length === 1 ? 'it' : 'them'} under Settings → Allowlist.`,
    );
  }
  const refusal = unopenedHostReason(hosts, opened);
  if (refusal) throw new PolicyError(`load to ${refusal}`);
}
