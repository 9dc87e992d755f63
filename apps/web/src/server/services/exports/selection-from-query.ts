import { itemsFromParam, SelectionSchema, type Selection } from '~/lib/compare/selection';

/**
 * `?items=r.<id>,c.<e>.<pc>.<sc>&baseline=0&from=10&to=60[&floor=default]` as used by the compare
 * page's URL: the selection, or the first problem with it as `field: reason`.
 */
export function parseSelectionQuery(
  q: URLSearchParams,
): { selection: Selection; error: null } | { selection: null; error: string } {
  const from = q.get('from');
  const to = q.get('to');
  const parsed = SelectionSchema.safeParse({
    items: itemsFromParam(q.get('items')),
    baseline: q.get('baseline') ? Number(q.get('baseline')) : null,
    window: from !== null && to !== null ? { from: Number(from), to: Number(to) } : null,
    noiseFloor: q.get('floor') === 'default' ? 'default' : null,
  });
  if (parsed.success) return { selection: parsed.data, error: null };
  const issue = parsed.error.issues[0]!;
  const field = issue.path.length ? issue.path.join('.') : 'selection';
  return { selection: null, error: `${field}: ${issue.message}` };
}

export function selectionFromQuery(q: URLSearchParams): Selection | null {
  return parseSelectionQuery(q).selection;
}
