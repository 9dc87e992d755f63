import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { endpointsOf, parseIp, redactUrl, type PinnedHost } from '@poolbench/contracts/net';

export interface ProbeResponse {
  status: number;
  /** body, cut at maxBytes */
  text: string;
}

/** A probe met a 3xx: probes never follow redirects (the next hop was never checked). */
export class ProbeRedirectError extends Error {
  constructor(
    url: string,
    readonly status: number,
    location: string | undefined,
  ) {
    super(
      `${redactUrl(url)} answered HTTP ${status} redirecting to ${location ? redactUrl(location) : 'nowhere'}; PoolBench does not follow redirects for probes: configure the final URL`,
    );
    this.name = 'ProbeRedirectError';
  }
}

const pinnedLookup =
  (address: string): LookupFunction =>
  (_hostname, options, callback) => {
    const family = parseIp(address)?.v ?? 4;
    if ((options as { all?: boolean }).all)
      (callback as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(
        null,
        [{ address, family }],
      );
    else callback(null, address, family);
  };

/**
 * One HTTP(S) request from the worker (readiness, apply hook, metrics) to the address the run
 * pinned for that host, with the original Host header and TLS server name. Names that were not
 * pinned are refused; IP literals stand for themselves. Never follows redirects.
 */
export function pinnedFetch(
  url: string,
  pins: PinnedHost[],
  init: {
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    timeoutMs: number;
    signal?: AbortSignal;
    maxBytes?: number;
  },
): Promise<ProbeResponse> {
  const u = new URL(url);
  const { host, port } = endpointsOf([url])[0]!;
  const pin = pins.find((p) => p.host === host && p.port === port);
  if (!pin && !parseIp(host))
    return Promise.reject(
      new Error(`${redactUrl(url)}: ${host}:${port} was not resolved and checked for this run`),
    );
  const lib = u.protocol === 'https:' ? https : http;
  const maxBytes = init.maxBytes ?? 300;
  return new Promise((resolve, reject) => {
    const req = lib.request(
      u,
      {
        method: init.method ?? 'GET',
        headers: init.headers,
        signal: init.signal
          ? AbortSignal.any([init.signal, AbortSignal.timeout(init.timeoutMs)])
          : AbortSignal.timeout(init.timeoutMs),
        ...(pin ? { lookup: pinnedLookup(pin.address) } : {}),
        // A fresh connection per probe: nothing pooled from before the pin can be reused.
        agent: false,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          res.resume();
          reject(new ProbeRedirectError(url, status, res.headers.location));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          if (size < maxBytes) chunks.push(c);
          size += c.length;
        });
        res.on('end', () =>
          resolve({ status, text: Buffer.concat(chunks).toString('utf8').slice(0, maxBytes) }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', (err) => reject(new Error(redactUrl(err.message))));
    req.end(init.body);
  });
}
