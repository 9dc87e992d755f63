/** A parsed Prometheus text exposition: metric name -> samples (labels + value). */
export type PromSamples = Map<string, { labels: Record<string, string>; value: number }[]>;

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{([^}]*)\})?\s+(\S+)/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export function parsePrometheusText(text: string): PromSamples {
  const out: PromSamples = new Map();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = LINE.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[3] ?? '').matchAll(LABEL)) labels[l[1]!] = l[2]!.replace(/\\(.)/g, '$1');
    const value = m[4] === '+Inf' ? Infinity : m[4] === '-Inf' ? -Infinity : Number(m[4]);
    const list = out.get(m[1]!) ?? [];
    list.push({ labels, value });
    out.set(m[1]!, list);
  }
  return out;
}

/** Sum of a metric over all its series, optionally only those whose labels match. */
export function sumOf(
  s: PromSamples,
  name: string,
  where: (labels: Record<string, string>) => boolean = () => true,
): number | null {
  const list = s.get(name);
  if (!list || list.length === 0) return null;
  let sum = 0;
  let any = false;
  for (const x of list) {
    if (!where(x.labels) || !Number.isFinite(x.value)) continue;
    sum += x.value;
    any = true;
  }
  return any ? sum : null;
}
