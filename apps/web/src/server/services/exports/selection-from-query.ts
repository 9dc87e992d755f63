import { itemsFromParam, SelectionSchema, type Selection } from '~/lib/compare/selection';

/** `?items=r.<id>,c.<e>.<pc>.<sc>&baseline=0&from=10&to=60[&floor=default]` as used by the compare page's URL. */
export function selectionFromQuery(q: URLSearchParams): Selection | null {
  const from = q.get('from');
  const to = q.get('to');
  const parsed = SelectionSchema.safeParse({
    items: itemsFromParam(q.get('items')),
    baseline: q.get('baseline') ? Number(q.get('baseline')) : null,
    window: from !== null && to !== null ? { from: Number(from), to: Number(to) } : null,
    noiseFloor: q.get('floor') === 'default' ? 'default' : null,
  });
  return parsed.success ? parsed.data : null;
}
