import { cidrContains, formatIp, judgedIp, parseCidr, parseIp } from './ip-math';
import { specialLabel, touchesLinkLocalOrMetadata } from './special-ranges';
import { addressOpened, notOpenedMessage, parseOpened } from './opened-ranges';

export interface WebhookRefusal {
  /** true for link-local and metadata addresses, which no allowlist entry can allow */
  never: boolean;
  message: string;
}

/**
 * Where a webhook may go, one resolved address at a time. It is not load, so a public address
 * needs no allowlist entry; a special-purpose one (loopback, private, CGNAT, …) only when an
 * IP/CIDR entry of the team's allowlist holds it (a host-name entry never covers one, as for
 * load) and only inside a range the installation opened (`opened`); link-local and
 * cloud-metadata addresses never. IPv4-in-IPv6 forms are judged by their
 * IPv4 address. The web app checks this when a webhook is saved, the worker before each delivery.
 */
export function webhookRefusal(
  host: string,
  address: string,
  patterns: readonly string[],
  opened: readonly string[],
): WebhookRefusal | null {
  const ip = parseIp(address);
  if (!ip)
    return {
      never: true,
      message: `webhook to ${host} (${address}) is not allowed: not an IP address`,
    };
  const judged = judgedIp(ip);
  const shown = host === address ? address : `${host} (${address})`;
  const metadata = touchesLinkLocalOrMetadata({ v: ip.v, n: ip.n, len: ip.v === 4 ? 32 : 128 });
  if (metadata) {
    return { never: true, message: `webhook to ${shown} is never allowed: it is ${metadata}` };
  }
  const label = specialLabel(ip);
  if (label === null) return null;
  const cidrs = patterns.map((p) => parseCidr(p)).filter((c) => c !== null);
  if (cidrs.some((c) => cidrContains(c, ip) || cidrContains(c, judged))) {
    if (addressOpened(ip, parseOpened(opened))) return null;
    return {
      never: false,
      message: `webhook to ${shown} is not allowed: ${notOpenedMessage(formatIp(judged), judged)}`,
    };
  }
  return {
    never: false,
    message: `webhook to ${shown} is not allowed: it is a ${label} address; an admin can add ${formatIp(judged)} to the team's allowed hosts (Settings → Allowlist)`,
  };
}
