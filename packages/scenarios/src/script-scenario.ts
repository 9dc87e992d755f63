import { z } from 'zod';
import { durationMs } from './common-schemas';
import { LIMITS } from './limits';
import {
  ThresholdListSchema,
  ThresholdSchema,
  type Threshold,
} from './thresholds/threshold-schema';

/**
 * A team's own k6 script as a scenario. The worker runs it in a sandbox (packages/k6
 * `sandbox`): an unprivileged user seeing only the script and its files, without network
 * while it is archived, and with only the run's pinned target reachable while it runs.
 * `__ENV.BASE_URL` is the target's first base URL (`__ENV.BASE_URLS` all of them).
 */
export const SCRIPT_TEMPLATE = 'k6-script';

/** How long a script's run may last when its scenario does not say. */
export const DEFAULT_SCRIPT_MAX_DURATION_MS = 10 * 60 * 1000;

const FILE_NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * Why a file a k6 script opens cannot have this name, or null: a plain name beside the script
 * (no folders), never the script's own `script.js`. The one rule for scenarios and the runner.
 */
export function scriptFileNameProblem(name: string): string | null {
  if (!FILE_NAME_RE.test(name))
    return 'must be a plain file name of letters, digits, . _ - (no folders)';
  if (name === 'script.js') return 'script.js is the script itself';
  return null;
}
const utf8 = (s: string) => new TextEncoder().encode(s).length;

/** What `k6 inspect` said about the script when it was saved (shown, never trusted for limits). */
export const InspectedSchema = z.looseObject({
  options: z.record(z.string(), z.unknown()),
  maxVUs: z.number().optional(),
  totalDuration: z.string().optional(),
  archiveBytes: z.number().optional(),
});
export type InspectedScript = z.infer<typeof InspectedSchema>;

export const ScriptScenarioSchema = z.strictObject({
  template: z.literal(SCRIPT_TEMPLATE),
  /** the script: an ES module with a default function, `options` and optionally setup/teardown */
  source: z
    .string()
    .min(1, 'must not be empty')
    .refine(
      (s) => utf8(s) <= LIMITS.maxScriptBytes,
      `must be at most ${LIMITS.maxScriptBytes / 1024} KiB`,
    ),
  /** files the script opens by relative path (`open('./users.csv')`) */
  files: z
    .record(z.string(), z.string())
    // names are checked here, not by the key schema, so each problem is named under its file
    .superRefine((f, ctx) => {
      for (const name of Object.keys(f)) {
        const problem = scriptFileNameProblem(name);
        if (problem) ctx.addIssue({ code: 'custom', path: [name], message: problem });
      }
    })
    .refine((f) => Object.keys(f).length <= LIMITS.maxScriptFiles, {
      message: `may hold at most ${LIMITS.maxScriptFiles} files`,
    })
    .refine(
      (f) => Object.values(f).reduce((n, c) => n + utf8(c), 0) <= LIMITS.maxScriptFilesBytes,
      `may hold at most ${LIMITS.maxScriptFilesBytes / 1024} KiB of files`,
    )
    .default({}),
  /** the run is stopped after this long, whatever the script's own scenarios say */
  maxDurationMs: durationMs({ min: 1000, max: LIMITS.maxDurationMs }).default(
    DEFAULT_SCRIPT_MAX_DURATION_MS,
  ),
  /** PoolBench's thresholds, evaluated on the run's summary like a template scenario's */
  thresholds: ThresholdListSchema,
  readyPath: z
    .string()
    .max(256)
    .regex(/^\/[A-Za-z0-9\-._~/]*$/, 'must be a plain path starting with /')
    .default('/'),
  inspected: InspectedSchema.optional(),
});
export type ScriptScenario = z.infer<typeof ScriptScenarioSchema>;
export type ScriptScenarioInput = z.input<typeof ScriptScenarioSchema>;

export function isScriptScenario(s: unknown): boolean {
  return (
    typeof s === 'object' &&
    s !== null &&
    (s as { template?: unknown }).template === SCRIPT_TEMPLATE
  );
}

/** k6's duration strings ("1m30s", "500ms", "2h") in ms; null for what is not one. */
export function k6DurationMs(d: string | undefined): number | null {
  if (!d) return null;
  const re = /(\d+(?:\.\d+)?)(ms|h|m|s)/g;
  let total = 0;
  let matched = '';
  for (const m of d.matchAll(re)) {
    const v = Number(m[1]);
    total += m[2] === 'h' ? v * 3_600_000 : m[2] === 'm' ? v * 60_000 : m[2] === 's' ? v * 1000 : v;
    matched += m[0];
  }
  return matched === d && matched !== '' ? Math.round(total) : null;
}

/** How long a script scenario's load may run: its scenarios' total, capped by maxDurationMs. */
export function scriptPlannedMs(s: Pick<ScriptScenario, 'maxDurationMs' | 'inspected'>): number {
  const total = k6DurationMs(s.inspected?.totalDuration);
  return total === null ? s.maxDurationMs : Math.min(total, s.maxDurationMs);
}

/**
 * The script's own `options.thresholds` as PoolBench thresholds, evaluated on the run's summary:
 * those on a metric PoolBench keeps or the script's own (or a tagged sub-metric of one) with an
 * expression PoolBench evaluates, and, for the others, why not (a k6 metric the output does not
 * keep, an expression outside the grammar).
 */
export function scriptThresholds(options: Record<string, unknown>): {
  applied: Threshold[];
  skipped: Array<{ metric: string; expr: string; reason: string }>;
} {
  const applied: Threshold[] = [];
  const skipped: Array<{ metric: string; expr: string; reason: string }> = [];
  const raw = options.thresholds;
  if (typeof raw !== 'object' || raw === null) return { applied, skipped };
  for (const [metric, list] of Object.entries(raw)) {
    const exprs = Array.isArray(list) ? list : [list];
    for (const item of exprs) {
      const expr =
        typeof item === 'string'
          ? item
          : typeof item === 'object' &&
              item !== null &&
              typeof (item as { threshold?: unknown }).threshold === 'string'
            ? (item as { threshold: string }).threshold
            : null;
      if (expr === null) continue;
      const t = ThresholdSchema.safeParse({ metric, expr });
      if (t.success) applied.push(t.data);
      else
        skipped.push({
          metric,
          expr,
          reason: t.error.issues[0]?.message ?? 'not evaluated by PoolBench',
        });
    }
  }
  return { applied, skipped };
}

/** One k6 scenario of a script's options, as the import view and the run page list it. */
export interface ScriptScenarioRow {
  name: string;
  executor: string;
  /** the numbers that size it: VUs, rate, iterations, duration, stages … */
  shape: string;
}

const SHAPE_KEYS = [
  'vus',
  'iterations',
  'rate',
  'timeUnit',
  'duration',
  'startVUs',
  'startRate',
  'preAllocatedVUs',
  'maxVUs',
  'startTime',
] as const;

/** The k6 scenarios of a script's resolved options (`inspected.options`), one row each. */
export function scriptScenarioRows(options: Record<string, unknown>): ScriptScenarioRow[] {
  const scenarios = options.scenarios;
  if (typeof scenarios !== 'object' || scenarios === null) return [];
  return Object.entries(scenarios).map(([name, raw]) => {
    const s: Record<string, unknown> = typeof raw === 'object' && raw !== null ? { ...raw } : {};
    const parts = SHAPE_KEYS.filter((k) => s[k] !== undefined).map((k) => `${k} ${String(s[k])}`);
    if (Array.isArray(s.stages)) parts.push(`${s.stages.length} stages`);
    return {
      name,
      executor: typeof s.executor === 'string' ? s.executor : '?',
      shape: parts.join(', '),
    };
  });
}
