import { jsonStrings, readData, variablesIn, type ScenarioData } from './flow-schema';
import type { RequestSpec } from './request-spec';

interface FlowInput {
  requests: RequestSpec[];
  flow?: boolean | undefined;
  data?: ScenarioData | undefined;
}

interface Problem {
  path: (string | number)[];
  message: string;
}

/** The `{{name}}` variables a request uses, with the field each one is in. */
export function requestVariables(
  r: RequestSpec,
): Array<{ name: string; path: (string | number)[] }> {
  const out: Array<{ name: string; path: (string | number)[] }> = [];
  for (const name of variablesIn(r.path)) out.push({ name, path: ['path'] });
  for (const [k, v] of Object.entries(r.query))
    if (typeof v === 'string')
      for (const name of variablesIn(v)) out.push({ name, path: ['query', k] });
  for (const [k, v] of Object.entries(r.headers))
    for (const name of variablesIn(v)) out.push({ name, path: ['headers', k] });
  if (r.body.kind === 'json')
    for (const s of jsonStrings(r.body.value))
      for (const name of variablesIn(s)) out.push({ name, path: ['body', 'value'] });
  return out;
}

/**
 * What a flow's requests may not do: use a variable nothing defines before it, extract outside a
 * flow, or carry weights that a flow ignores. Scenarios that use no variables, data or flow are
 * left exactly as they were (a literal `{{x}}` in such a scenario is sent as written).
 */
export function flowProblems(s: FlowInput): Problem[] {
  const problems: Problem[] = [];
  const read = s.data ? readData(s.data) : null;
  const columns = read && typeof read !== 'string' ? read.columns : [];
  const usesVariables = s.flow === true || s.data !== undefined;
  s.requests.forEach((r, i) => {
    if (!s.flow && r.extract?.length)
      problems.push({
        path: ['requests', i, 'extract'],
        message:
          'extraction needs a flow (flow: true): in a weighted mix no request comes after it',
      });
    if (!s.flow && r.thinkTimeMs !== undefined)
      problems.push({
        path: ['requests', i, 'thinkTimeMs'],
        message: "a step's think time needs a flow (flow: true); use the template's thinkTimeMs",
      });
    if (s.flow && r.weight !== 1)
      problems.push({
        path: ['requests', i, 'weight'],
        message: 'a flow sends every request in order, so weights do not apply: leave it at 1',
      });
  });
  if (!usesVariables) return problems;
  const defined = new Set(columns);
  s.requests.forEach((r, i) => {
    for (const v of requestVariables(r)) {
      if (!defined.has(v.name)) {
        const extractedLater = s.requests.some(
          (later, j) => j >= i && later.extract?.some((e) => e.name === v.name),
        );
        problems.push({
          path: ['requests', i, ...v.path],
          message: `uses {{${v.name}}}, which ${
            extractedLater
              ? 'is extracted only by this or a later request'
              : columns.length
                ? `is neither a data column (${columns.join(', ')}) nor extracted by an earlier request`
                : 'no earlier request extracts and no data column provides'
          }`,
        });
      }
    }
    // Only a flow carries values from one request to the next.
    if (s.flow) for (const e of r.extract ?? []) defined.add(e.name);
  });
  s.requests.forEach((r, i) =>
    (r.extract ?? []).forEach((e, k) => {
      if (columns.includes(e.name))
        problems.push({
          path: ['requests', i, 'extract', k, 'name'],
          message: `${e.name} is also a data column; extract it under another name`,
        });
    }),
  );
  return problems;
}
