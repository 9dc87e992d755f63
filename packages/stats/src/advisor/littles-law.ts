/**
 * Little's law for a connection pool: the mean number of connections in use is L = λ·W, with λ
 * the rate of requests that take a connection and W the mean time each holds it. A run whose
 * measured pool occupancy disagrees with λ·W points at a measurement problem (a gauge sampled
 * too rarely, requests that hold more or fewer connections than assumed, time spent outside the
 * pool counted as hold time) before any pool-size advice is built on it.
 */

/**
 * Relative tolerance: the observed mean may differ from λ·W by this share of λ·W. 20 %: in a real
 * run the in-use gauge is sampled once a second (a handful of instants, not a time average) and W
 * is the request's latency less its pool wait, which also counts the HTTP work around the query;
 * on the Java/HikariCP lab target at 60 req/s × 40 ms these two put a healthy pool 8 % under and
 * 8 % over the true 2.4 connections.
 */
export const LITTLES_LAW_RELATIVE_TOLERANCE = 0.2;
/**
 * Absolute floor of the tolerance, in connections: for small L an in-use gauge sampled about
 * once a second counts whole connections, so a few samples can move its mean by a fraction of
 * one connection that would be a large relative difference.
 */
export const LITTLES_LAW_ABSOLUTE_TOLERANCE = 0.25;

export interface LittlesLawInput {
  /** Observed mean connections in use over the run. */
  meanInUse: number;
  /** Requests per second that took a connection. */
  throughputPerS: number;
  /** Mean time one request held its connection, ms. */
  meanHoldMs: number;
}

export interface LittlesLawCheck {
  /** λ·W in connections. */
  expected: number;
  observed: number;
  /** (observed − expected) / expected; null when expected is 0. */
  relativeDifference: number | null;
  /** |observed − expected| ≤ max(10 % of expected, 0.25 connections). */
  agrees: boolean;
  /** The tolerance that was applied, in connections. */
  tolerance: number;
}

function checkNonNegative(value: number, what: string): void {
  if (!(Number.isFinite(value) && value >= 0))
    throw new RangeError(`${what} must be finite and at least 0, got ${value}`);
}

/**
 * Compares the observed mean pool occupancy with λ·W. They agree when they differ by at most
 * max(LITTLES_LAW_RELATIVE_TOLERANCE × λ·W, LITTLES_LAW_ABSOLUTE_TOLERANCE). Throws RangeError
 * on negative or non-finite inputs.
 */
export function checkLittlesLaw(input: LittlesLawInput): LittlesLawCheck {
  checkNonNegative(input.meanInUse, 'meanInUse');
  checkNonNegative(input.throughputPerS, 'throughputPerS');
  checkNonNegative(input.meanHoldMs, 'meanHoldMs');
  const expected = (input.throughputPerS * input.meanHoldMs) / 1000;
  const tolerance = Math.max(
    LITTLES_LAW_RELATIVE_TOLERANCE * expected,
    LITTLES_LAW_ABSOLUTE_TOLERANCE,
  );
  const diff = input.meanInUse - expected;
  return {
    expected,
    observed: input.meanInUse,
    relativeDifference: expected > 0 ? diff / expected : null,
    agrees: Math.abs(diff) <= tolerance,
    tolerance,
  };
}
