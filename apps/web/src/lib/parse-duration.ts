const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * A duration as people write it: `1500` (ms, the API's unit), `1500ms`, `30s`, `2.5s`, `2m`,
 * `1h`, `1m30s`. undefined for an empty field, null for text that is not a duration.
 */
export function parseDurationMs(text: string): number | null | undefined {
  const t = text.trim().toLowerCase().replace(/\s+/g, '');
  if (t === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(t)) return Math.round(Number(t));
  const parts = [...t.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== t) return null;
  return Math.round(parts.reduce((ms, p) => ms + Number(p[1]) * UNIT_MS[p[2]!]!, 0));
}

/** The shortest exact way to write a duration: 120000 → `2m`, 30000 → `30s`, 1500 → `1500ms`. */
export function formatDurationInput(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '';
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms >= 1000 && ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}
