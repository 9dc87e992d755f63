import type { Operation } from './operation';
import { ADVISOR_OPERATIONS } from './resources/advisors';
import { BASELINE_OPERATIONS } from './resources/baselines';
import { CHANGE_POINT_OPERATIONS } from './resources/change-points';
import { COMPARISON_OPERATIONS } from './resources/comparisons';
import { EXPERIMENT_OPERATIONS } from './resources/experiments';
import { RUN_OPERATIONS } from './resources/runs';
import { SHARE_LINK_OPERATIONS } from './resources/share-links';

/** Every operation of /api/v1, by resource: the routing table and the OpenAPI document's source. */
export const OPERATIONS: Operation[] = [
  ...EXPERIMENT_OPERATIONS,
  ...COMPARISON_OPERATIONS,
  ...SHARE_LINK_OPERATIONS,
  ...ADVISOR_OPERATIONS,
  ...RUN_OPERATIONS,
  ...CHANGE_POINT_OPERATIONS,
  ...BASELINE_OPERATIONS,
];

/** The methods the operation table has for a path (for `Allow`); empty when no route matches. */
export function allowedMethods(path: string): string[] {
  const methods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'].filter(
    (m) => m !== 'HEAD' && typeof matchOperation(m, path) === 'object',
  );
  return methods.length > 0 ? [...methods, 'OPTIONS'] : [];
}

function decodeOrNull(part: string): string | null {
  try {
    return decodeURIComponent(part);
  } catch {
    return null;
  }
}

export function matchOperation(
  method: string,
  path: string,
): { op: Operation; params: Record<string, string> } | 'method' | null {
  const parts = path.split('/').filter(Boolean);
  let pathMatched = false;
  for (const o of OPERATIONS) {
    const tpl = o.path.split('/').filter(Boolean);
    if (tpl.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const ok = tpl.every((t, i) => {
      if (t.startsWith('{')) {
        // server.mjs answers a malformed escape 400 first; behind anything else it matches nothing
        const value = decodeOrNull(parts[i]!);
        return value !== null && ((params[t.slice(1, -1)] = value), true);
      }
      return t === parts[i];
    });
    if (!ok) continue;
    pathMatched = true;
    if (o.method === method) return { op: o, params };
  }
  return pathMatched ? 'method' : null;
}
