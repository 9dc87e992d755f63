import { jsonBodyStats } from './json-body-stats';
import type { RequestSpec } from './request-spec';

export { jsonBodyStats };

/**
 * What one VU holds in memory for the request bodies of a scenario, in bytes, as an upper
 * estimate. Every VU builds its own copy in the init context (script-runtime.ts: BODIES).
 *
 * Measured with PoolBench's k6 build (max RSS at 1 and 21 VUs, 2026-11-23, see docs/security.md):
 * - `bytes` body of 2 MiB: 50 → 91 MB, ~2 MiB per VU (one ASCII string).
 * - `json` body that is one 2 MiB string: 77 → 140 MB, ~3 MiB per VU (CONFIG's copy plus the
 *   stringified body).
 * - `json` body of 1.84 MB made of 34 953 small objects (174 766 JSON values): 196 → 832 MB,
 *   ~31 MiB per VU, since every JSON value becomes a JS object or property in k6's JavaScript VM.
 * So a JSON body is estimated at twice its serialized size plus 180 bytes per JSON value (objects,
 * arrays and every member): 4 MiB for the string case and 33 MiB for the objects, both at or
 * above what was measured.
 */
export const JSON_BODY_STRING_FACTOR = 2;
export const JSON_BODY_BYTES_PER_VALUE = 180;

/** Estimated bytes one VU holds for one request's body. */
export function bodyMemoryBytes(body: RequestSpec['body']): number {
  if (body.kind === 'bytes') return body.sizeBytes;
  if (body.kind === 'json') {
    const { bytes, values } = jsonBodyStats(body.value);
    return JSON_BODY_STRING_FACTOR * bytes + JSON_BODY_BYTES_PER_VALUE * values;
  }
  return 0;
}
