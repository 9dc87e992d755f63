/** The compare view's query key, by its data URL's query string (all comparisons: no argument). */
export const comparePageKey = (query?: string) =>
  query === undefined ? (['compare-page'] as const) : (['compare-page', query] as const);
