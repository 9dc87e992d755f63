/**
 * Ground-truth queueing models for the pool-size advisor. The lab target's `GET /work?ms=S` holds
 * one pool connection for S ms, so a pool of c connections is a c-server queue with service time
 * S. Rates are per second, times in milliseconds.
 */

function checkPositive(value: number, what: string): void {
  if (!(Number.isFinite(value) && value > 0))
    throw new RangeError(`${what} must be a finite number above 0, got ${value}`);
}

function checkServers(c: number): void {
  if (!(Number.isInteger(c) && c >= 1))
    throw new RangeError(`the number of servers must be an integer of at least 1, got ${c}`);
}

/** Offered load in Erlangs, a = λ·S, with S converted to seconds. */
export function offeredLoad(lambdaPerS: number, serviceMs: number): number {
  checkPositive(lambdaPerS, 'the arrival rate');
  checkPositive(serviceMs, 'the service time');
  return (lambdaPerS * serviceMs) / 1000;
}

export interface DdcSizing {
  /** Smallest c with utilisation strictly below 1. */
  servers: number;
  /** Offered load a = λ·S in Erlangs. */
  offeredLoad: number;
  /** ρ = a / c at `servers`. */
  utilisation: number;
  /** Response time at `servers`: the service time itself, since nobody waits. */
  latencyMs: number;
}

/**
 * D/D/c: arrivals exactly every 1/λ (k6 constant-arrival-rate), every request holds a connection
 * for exactly S. With ρ = λ·S / c < 1 each request finds a free connection and its latency is S.
 * At ρ = 1 the deterministic model would just keep up, but any jitter in arrivals or service then
 * makes the queue grow without bound (a random walk with no drift does not return to 0 in finite
 * mean time), so ρ = 1 is excluded: the answer is ⌊a⌋ + 1. An offered load within 1e-9 (relative)
 * of an integer is taken as that integer, so 20/s × 50 ms gives 2 connections even where the
 * floating-point product lands just below 1.
 */
export function ddcMinServers(lambdaPerS: number, serviceMs: number): DdcSizing {
  const raw = offeredLoad(lambdaPerS, serviceMs);
  const nearest = Math.round(raw);
  const a = Math.abs(raw - nearest) <= 1e-9 * raw ? nearest : raw;
  const servers = Math.floor(a) + 1;
  return { servers, offeredLoad: raw, utilisation: raw / servers, latencyMs: serviceMs };
}

/**
 * Erlang B blocking probability for c servers and offered load a, by the stable recursion
 * B(0) = 1, B(k) = a·B(k−1) / (k + a·B(k−1)), which never forms a^c / c! and so neither
 * overflows nor loses precision for large c.
 */
export function erlangB(c: number, a: number): number {
  checkServers(c);
  if (!(Number.isFinite(a) && a >= 0))
    throw new RangeError(`offered load must be finite and at least 0, got ${a}`);
  let b = 1;
  for (let k = 1; k <= c; k++) b = (a * b) / (k + a * b);
  return b;
}

/**
 * Erlang C: the probability that an arrival waits in an M/M/c queue with offered load a < c,
 * from Erlang B as C = c·B / (c − a·(1 − B)). Equals 1 at a ≥ c (every arrival waits: the queue
 * is unstable).
 */
export function erlangC(c: number, a: number): number {
  const b = erlangB(c, a);
  if (a >= c) return 1;
  return (c * b) / (c - a * (1 - b));
}

export interface QueueWait {
  /** Erlang C: the share of arrivals that wait at all. */
  delayProbability: number;
  /** Mean wait for a connection, ms. */
  meanWaitMs: number;
  /** Approximate 99th percentile of the wait, ms (0 when fewer than 1 % of arrivals wait). */
  p99WaitMs: number;
  /** ρ = a / c. */
  utilisation: number;
}

function unstable(rho: number): QueueWait {
  return {
    delayProbability: 1,
    meanWaitMs: Number.POSITIVE_INFINITY,
    p99WaitMs: Number.POSITIVE_INFINITY,
    utilisation: rho,
  };
}

/** q-quantile of a wait that is 0 with probability 1 − pWait and else exponential with `mean`. */
function waitQuantile(pWait: number, conditionalMeanMs: number, q: number): number {
  const tail = 1 - q;
  return pWait <= tail ? 0 : conditionalMeanMs * Math.log(pWait / tail);
}

/**
 * M/M/c (Poisson arrivals, exponential service with mean S): W is 0 with probability 1 − C and
 * otherwise exponential with rate cμ − λ, so E[W] = C·S / (c − a) and P(W > t) = C·e^{−(c − a)t/S}
 * (e.g. Kleinrock, Queueing Systems vol. 1, 1975, §3.5; Gross & Harris, Fundamentals of Queueing
 * Theory, §2.3). Infinite waits at ρ ≥ 1.
 */
export function mmcWait(lambdaPerS: number, serviceMs: number, c: number): QueueWait {
  checkServers(c);
  const a = offeredLoad(lambdaPerS, serviceMs);
  const rho = a / c;
  if (rho >= 1) return unstable(rho);
  const pWait = erlangC(c, a);
  const conditional = serviceMs / (c - a);
  return {
    delayProbability: pWait,
    meanWaitMs: pWait * conditional,
    p99WaitMs: waitQuantile(pWait, conditional, 0.99),
    utilisation: rho,
  };
}

/**
 * Cosmetatos' correction factor for M/D/c: E[W(M/D/c)] ≈ ½·(1 + F)·E[W(M/M/c)] with
 * F = (1 − ρ)(c − 1)(√(4 + 5c) − 2) / (16ρc). G. P. Cosmetatos, "Approximate explicit formulae
 * for the average queueing time in the processes (M/D/r) and (D/M/r)", INFOR 13 (1975) 328–331;
 * also in H. C. Tijms, A First Course in Stochastic Models (2003), §5.2. F is 0 for c = 1, where
 * the half of M/M/1 is the exact Pollaczek–Khinchine mean for M/D/1.
 */
export function cosmetatosFactor(c: number, rho: number): number {
  checkServers(c);
  if (!(rho > 0 && rho < 1)) throw new RangeError(`utilisation must be in (0, 1), got ${rho}`);
  return 0.5 * (1 + ((1 - rho) * (c - 1) * (Math.sqrt(4 + 5 * c) - 2)) / (16 * rho * c));
}

/**
 * M/D/c (Poisson arrivals, deterministic service S), approximate:
 * - mean wait by Cosmetatos: the M/M/c mean times `cosmetatosFactor` (see there);
 * - tail: the M/M/c delay probability C (a good approximation of the M/D/c one) with an
 *   exponential conditional wait whose mean makes the overall mean the Cosmetatos one, so
 *   P(W > t) ≈ C·exp(−t·C / E[W]) and the q-quantile is (E[W] / C)·ln(C / (1 − q)). This is the
 *   usual exponential-tail approximation for M/G/c waits (Tijms 2003, §5.2; exact as ρ → 1).
 * The unit tests compare both numbers with a seeded discrete-event simulation.
 */
export function mdcWait(lambdaPerS: number, serviceMs: number, c: number): QueueWait {
  checkServers(c);
  const a = offeredLoad(lambdaPerS, serviceMs);
  const rho = a / c;
  if (rho >= 1) return unstable(rho);
  const mmc = mmcWait(lambdaPerS, serviceMs, c);
  const mean = mmc.meanWaitMs * cosmetatosFactor(c, rho);
  const pWait = mmc.delayProbability;
  return {
    delayProbability: pWait,
    meanWaitMs: mean,
    p99WaitMs: pWait > 0 ? waitQuantile(pWait, mean / pWait, 0.99) : 0,
    utilisation: rho,
  };
}

export interface MdcSizing {
  servers: number;
  /** S + approximate p99 wait at `servers`, ms. */
  p99ResponseMs: number;
  wait: QueueWait;
}

/**
 * Smallest c whose approximate M/D/c p99 response time S + p99 wait is within `p99LimitMs`.
 * Null when even no waiting at all cannot meet the limit (S > limit). The search starts at the
 * smallest stable c (⌊a⌋ + 1) and stops at the first c that fits: the wait falls with c.
 */
export function mdcMinServers(
  lambdaPerS: number,
  serviceMs: number,
  p99LimitMs: number,
): MdcSizing | null {
  checkPositive(p99LimitMs, 'the p99 limit');
  if (serviceMs > p99LimitMs) {
    offeredLoad(lambdaPerS, serviceMs);
    return null;
  }
  const a = offeredLoad(lambdaPerS, serviceMs);
  for (let c = Math.floor(a) + 1; ; c++) {
    const wait = mdcWait(lambdaPerS, serviceMs, c);
    const p99ResponseMs = serviceMs + wait.p99WaitMs;
    if (p99ResponseMs <= p99LimitMs) return { servers: c, p99ResponseMs, wait };
  }
}
